package record

import (
	"regexp"
	"strings"
	"testing"
)

func TestValidRequestID(t *testing.T) {
	for _, id := range []string{"20140930007", "a", "ABC_def-123", strings.Repeat("9", MaxRequestIDLen)} {
		if !ValidRequestID(id) {
			t.Errorf("%q refused", id)
		}
	}
	for _, id := range []string{"", " 20140930007", "20140930007 ", "2014/0930007", "../etc/passwd", "2014 0930", "2014#1",
		"２０１４", "2014\n", "id?x=1", "%41", strings.Repeat("9", MaxRequestIDLen+1)} {
		if ValidRequestID(id) {
			t.Errorf("%q accepted", id)
		}
	}
	// the pattern published in tool schemas is the rule itself
	if re := regexp.MustCompile(RequestIDPattern); !re.MatchString("20140930007") || re.MatchString("a/b") {
		t.Error("RequestIDPattern disagrees with ValidRequestID")
	}
}
