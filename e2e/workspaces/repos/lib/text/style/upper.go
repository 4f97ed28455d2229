// Package style lies three folders below the task root: a definition here
// opens every folder above it in the Files tree.
package style

import "strings"

// Upper returns s in upper case.
func Upper(s string) string { return strings.ToUpper(s) }
