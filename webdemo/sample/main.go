// Command greeter is the demo workspace: open it in the demo page and the
// language server points at the mistake below.
package main

import (
	"fmt"

	"example.com/greeter/greet"
)

func main() {
	var count int = "three"
	fmt.Println(greet.Hello("Kandev"), count)
}
