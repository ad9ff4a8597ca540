// Stands in for github.com/json-iterator/go (see jsoniter.go): the root go.mod replaces that
// module with this directory. No dependencies.
module github.com/json-iterator/go

go 1.23
