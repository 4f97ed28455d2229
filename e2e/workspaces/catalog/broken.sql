SELEC * FROM greetings;
