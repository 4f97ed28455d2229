const answer: number = "forty-two";
export { answer };
