module example.com/catalog

go 1.26

require broken
