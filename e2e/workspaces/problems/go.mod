module example.com/problems

go 1.26
