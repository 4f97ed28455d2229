-- The greeter's table: one row per greeting sent.
CREATE TABLE greetings (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  sent_at TIMESTAMP NOT NULL
);

SELECT name, sent_at FROM greetings WHERE id = 1;
