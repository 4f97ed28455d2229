// Command api is the first of the task's two repositories; it calls into
// the second, lib, checked out beside it.
package main

import (
	"fmt"

	"example.com/lib"
	"example.com/lib/text/style"
)

func main() {
	fmt.Println(lib.Name(), style.Upper("kandev"))
}
