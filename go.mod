module loopkit

go 1.23.0

require (
	golang.org/x/net v0.42.0
	golang.org/x/sys v0.34.0
	golang.org/x/text v0.27.0
)
