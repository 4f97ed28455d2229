#include <stdio.h>

/* greet prints the greeting the Go module's greet.Hello returns. */
static void greet(const char *name) {
	printf("Hello, %s\n", name);
}

int main(int argc, char **argv) {
	greet(argc > 1 ? argv[1] : "gopher");
	return 0;
}
