// Command hierarchy greets twice and measures a square: main and report
// both call greet.Greet.
package main

import (
	"fmt"

	"example.com/hierarchy/greet"
	"example.com/hierarchy/shapes"
)

func main() {
	fmt.Println(greet.Greet("Kandev"))
	report()
}

// report greets again and prints the area of a square.
func report() {
	fmt.Println(greet.Greet("again"), shapes.Total(shapes.Square{Side: 2}))
}
