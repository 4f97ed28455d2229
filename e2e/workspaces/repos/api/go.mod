module example.com/api

go 1.26

require example.com/lib v0.0.0
