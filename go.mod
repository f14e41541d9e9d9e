module github.com/recordwatch/recordwatch

go 1.26.0

require golang.org/x/text v0.37.0
