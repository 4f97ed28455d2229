// Package greet builds greetings.
package greet

// Greet returns a friendly greeting for name.
func Greet(name string) string {
	return punctuate("Hello, " + name)
}

// punctuate ends s with an exclamation mark.
func punctuate(s string) string {
	return s + "!"
}
