package shapes

// Perimeter is the perimeter of a square with sides of length side.
func Perimeter(side int) int {
	var sides int = "four"
	return sides * side
}
