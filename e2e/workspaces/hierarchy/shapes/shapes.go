// Package shapes measures shapes.
package shapes

// Shape is anything with an area.
type Shape interface {
	Area() float64
}

// Square is a Shape with sides of one length.
type Square struct{ Side float64 }

// Area is the square of the side.
func (s Square) Area() float64 { return s.Side * s.Side }

// Circle is a round Shape.
type Circle struct{ Radius float64 }

// Area is roughly pi times the radius squared.
func (c Circle) Area() float64 { return 3.14 * c.Radius * c.Radius }

// Total adds up the areas of shapes.
func Total(shapes ...Shape) float64 {
	sum := 0.0
	for _, s := range shapes {
		sum += s.Area()
	}
	return sum
}
