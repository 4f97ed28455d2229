int main(void) {
  return undefined_count;
}
