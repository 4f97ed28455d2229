// Greeter is the sample's Kotlin: Kandev runs kotlin-lsp when the task host
// has it on its PATH, and never installs it.
package greeter

fun greet(name: String): String = "Hello, $name!"

fun main() {
    println(greet("Kandev"))
}
