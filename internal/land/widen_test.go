package land_test

import (
	"context"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/land"
)

// An empty page of land projects offers the nearest widening: the same
// filters without the first of them (in the fixed order) that then match
// something, counted as the list would count it, with the newest
// milestone; a page that finds projects, and a search by an identifier,
// offer none.
func TestEmptyLandListOffersTheNearestWidening(t *testing.T) {
	s := service(t)
	ctx := context.Background()
	// a status no project has, with a borough that has projects
	p, err := s.Browse(ctx, land.Filter{Status: "Withdrawn by mistake", Borough: "Queens"}, "", 10)
	if err != nil || p.Total != 0 {
		t.Fatalf("%d %v", p.Total, err)
	}
	q, err := s.Browse(ctx, land.Filter{Borough: "Queens"}, "", 1)
	if err != nil || q.Total == 0 {
		t.Fatal(err)
	}
	w := p.Widening
	if w == nil || w.Without != "status" || w.Matched != q.Total || w.Newest != q.Projects[0].LastDate.Format("2006-01-02") ||
		!strings.Contains(w.Note, "without the status") {
		t.Fatalf("widening %+v, want status left out: %d, newest %v", w, q.Total, q.Projects[0].LastDate)
	}
	// the first constraint that matches when left out is the one given:
	// stage and borough both set, the stage alone answers nothing
	p, err = s.Browse(ctx, land.Filter{Stage: "borough_president", Borough: "Staten Island", Word: "zzzqqq"}, "", 10)
	if err != nil || p.Total != 0 {
		t.Fatalf("%d %v", p.Total, err)
	}
	if w := p.Widening; w == nil || w.Without != "word" {
		t.Errorf("widening %+v, want the words left out (stage and borough with the words still match nothing)", w)
	}
	if p.Widening != nil {
		r, _ := s.Browse(ctx, land.Filter{Stage: "borough_president", Borough: "Staten Island"}, "", 1)
		if r.Total != p.Widening.Matched {
			t.Errorf("widening counts %d, the list %d", p.Widening.Matched, r.Total)
		}
	}
	if p, _ := s.Browse(ctx, land.Filter{Borough: "Queens"}, "", 1); p.Widening != nil {
		t.Errorf("a page with projects offers %+v", p.Widening)
	}
	if p, _ := s.Browse(ctx, land.Filter{BBL: "1000000001", Borough: "Queens"}, "", 1); p.Total != 0 || p.Widening != nil {
		t.Errorf("a search by BBL offers %+v", p.Widening)
	}
}
