fun main() {
    println("served by the fake language server standing in for kotlin-lsp")
}
