variable "region" {
  description = "Where the greeter runs."
  default     = "eu-central-1"
}

variable "replicas" {
  default = 2
}

output "endpoint" {
  value = "https://greeter.${var.region}.example.com"
}
