package record

import "regexp"

// RequestIDPattern is the one shape of a City Record RequestID this service
// accepts (e.g. 20140930007): 1 to 40 ASCII letters, digits, "_" or "-".
// The readers refuse rows whose id does not match it, and the notice
// endpoint and tool refuse requests for such ids, so every indexed notice
// has a permalink that opens.
const RequestIDPattern = `^[0-9A-Za-z_-]{1,40}$`

// MaxRequestIDLen is the longest RequestID RequestIDPattern allows.
const MaxRequestIDLen = 40

var requestIDRE = regexp.MustCompile(RequestIDPattern)

// ValidRequestID reports whether id has the shape of a RequestID.
func ValidRequestID(id string) bool { return requestIDRE.MatchString(id) }
