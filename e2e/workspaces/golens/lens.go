package golens

// Double returns n twice.
func Double(n int) int { return 2 * n }
