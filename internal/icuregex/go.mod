// Stands in for github.com/dolthub/go-icu-regex (see regex.go): the root go.mod replaces that
// module with this directory. No dependencies.
module github.com/dolthub/go-icu-regex

go 1.23
