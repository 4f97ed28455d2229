package pgtest

import "errors"

// Environment variables read here.
const (
	// EnvRequire, set to 1, turns "PostgreSQL is not installed" from a
	// skip into a failure: CI sets it so that a missing install cannot
	// pass as green.
	EnvRequire = "KANDEV_REQUIRE_POSTGRES"
	// EnvBin names the directory of initdb and postgres.
	EnvBin = "KANDEV_PG_BIN"
)

// ErrNotInstalled is returned by Start when no initdb is found.
var ErrNotInstalled = errors.New("pgtest: PostgreSQL is not installed (no initdb)")
