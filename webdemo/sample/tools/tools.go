// Package tools shouts. Its go:generate line gets a code lens from gopls,
// the address https://go.dev/ref/spec#Comments and the import path below
// are document links, and the expression in Shout nests for Expand
// Selection.
package tools

//go:generate touch generated.txt

import "strings"

// Shout returns s in capitals with an exclamation mark.
func Shout(s string) string {
	return strings.ToUpper(s) + "!"
}
