// Package greet builds greetings.
package greet

// Hello returns a friendly greeting for name.
func Hello(name string) string {
	return "Hello, " + name + "!"
}
