module example.com/golens

go 1.26
