package entity

import (
	"slices"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/record"
)

// TestResolveName: the one agency rule, by method.
func TestResolveName(t *testing.T) {
	cw := DefaultCrosswalk()
	for _, c := range []struct {
		in     string
		ids    []string
		method string
	}{
		{"parks-and-recreation", []string{"parks-and-recreation"}, MethodID},
		{"Parks", []string{"parks-and-recreation"}, MethodShort},
		{"parks", []string{"parks-and-recreation"}, MethodShort},
		{"Dept of Parks & Recreation", []string{"parks-and-recreation"}, MethodShort},
		{"Parks and Recreation", []string{"parks-and-recreation"}, MethodExact},
		{"parks department", []string{"parks-and-recreation"}, MethodNickname},
		{"DPR", []string{"parks-and-recreation"}, MethodNickname},
		{"Police", []string{"police-department"}, MethodShort},
		{"POLICE DEPARTMENT", []string{"police-department"}, MethodKey},
		{"Brooklyn Community Board 6", []string{"community-boards"}, MethodFamily},
		{"unknown-agency", []string{"unknown-agency"}, MethodOwn},
	} {
		r, err := cw.ResolveName("agency", c.in)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		if !slices.Equal(r.IDs, c.ids) || r.Method != c.method {
			t.Errorf("%q: ids %v method %s, want %v %s", c.in, r.IDs, r.Method, c.ids, c.method)
		}
	}
	for _, in := range []string{"Department of Nonexistent Affairs", "", "Parks!!! <b>"} {
		_, err := cw.ResolveName("agency", in)
		if record.ErrorCode(err) != record.EINVALID {
			t.Errorf("%q: %v, want EINVALID", in, err)
		}
	}
	_, err := cw.ResolveName("agency", "Department of Parkland Recreation")
	if err == nil || !strings.Contains(err.Error(), "parks-and-recreation") {
		t.Errorf("no suggestion: %v", err)
	}
	// running text: lower-case words are not agencies unless nicknames
	if _, ok := cw.ResolveInText("police", false); ok {
		t.Error("lower-case police read as an agency in text")
	}
	if _, ok := cw.ResolveInText("doe", true); ok {
		t.Error("lower-case doe read as an agency in text")
	}
	if r, ok := cw.ResolveInText("DOE", true); !ok || !slices.Contains(r.IDs, "education") {
		t.Errorf("DOE in text: %+v %v", r, ok)
	}
}
