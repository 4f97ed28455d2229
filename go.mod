module github.com/kandev/lsp

go 1.26.0

require (
	github.com/coder/websocket v1.8.15
	github.com/hack-pad/safejs v0.1.0
	github.com/stretchr/testify v1.12.1
	golang.org/x/sync v0.25.0
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
