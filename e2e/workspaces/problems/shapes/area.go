// Package shapes measures squares.
package shapes

// Area is the area of a square with sides of length side.
func Area(side int) int {
	return side * side
}
