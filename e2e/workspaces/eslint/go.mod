// An npm package installed here (flatted) carries Go files of its own. This
// file makes the folder a module of its own, so that the project's
// `go test ./...` and `go vet ./...` do not build what npm put here.
module eslintworkspace

go 1.25
