// Command problems prints the area of a square. main.go is correct; its
// package shapes is not: the Problems panel names shapes/perimeter.go
// before anyone opens it.
package main

import (
	"fmt"

	"example.com/problems/report"
	"example.com/problems/shapes"
)

func main() {
	report.Name("square")
	fmt.Println(shapes.Area(3))
}
