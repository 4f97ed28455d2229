resource "null_resource" "greeter" {
  triggers = 
}
