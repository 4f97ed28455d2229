#!/usr/bin/env bash
# Builds the greeter and greets everyone named on the command line.
set -euo pipefail

out=$(mktemp -d)
go build -o $out/greeter .
for name in "$@"; do
  "$out/greeter" "$name"
done
