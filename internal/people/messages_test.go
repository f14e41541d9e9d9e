package people_test

import (
	"context"
	"strings"
	"testing"

	"github.com/recordwatch/recordwatch/internal/people"
)

// printedWas is what a leader change said of a node before its notes (the
// English the summary must keep, byte for byte).
func printedWas(l people.Leader) string {
	if l.NameState != people.Published {
		s := "no principal officer name (" + l.NameState + ")"
		if l.Title != "" {
			s += ", title " + l.Title
		}
		return s
	}
	if l.Title != "" {
		return l.Name + " (" + l.Title + ")"
	}
	return l.Name
}

// A leader change is a note in every combination of how its releases are
// dated and what they print: its English is the summary's sentence as it
// was, and its Spanish is the message file's (no key missing, none of the
// English words around the record values).
func TestChangeNotesEveryCombination(t *testing.T) {
	releases := []people.Release{{Dataset: "t3jq-9nkf", Date: "2026-06-12", DateKind: people.DatePublished},
		{Dataset: "t3jq-9nkf", Date: "2026-05-01", DateKind: people.DateFetched}, {Dataset: "t3jq-9nkf"}}
	var leaders []people.Leader
	for _, r := range releases {
		for _, st := range []string{people.Published, people.Empty, people.Unknown} {
			for _, title := range []string{"", "Commissioner"} {
				l := people.Leader{Release: r, AsOf: r.AsOf(), AsOfKey: r.AsOfKey(), NameState: st, Title: title}
				if st == people.Published {
					l.Name = "Rebecca Jones Gaston"
				}
				leaders = append(leaders, l)
			}
		}
	}
	for _, cur := range leaders {
		for _, prev := range leaders {
			n := people.ChangeNote("Administration for Children's Services", cur, prev)
			want := "The roster release " + cur.AsOf + " prints " + printedWas(cur) + " as principal officer of Administration for Children's Services" +
				"; the release " + prev.AsOf + " printed " + printedWas(prev) + "."
			if n.String() != want {
				t.Fatalf("English: %q, want %q", n.String(), want)
			}
			es := n.In("es")
			if !strings.HasPrefix(es, "La edición del padrón ") || strings.Contains(es, "[[") || strings.Contains(es, "principal officer") ||
				strings.Contains(es, " printed ") || strings.Contains(es, "as of") {
				t.Fatalf("Spanish: %q", es)
			}
		}
	}
}

// The leadership, disagreement and roster notes of an agency are notes:
// their English is the answer's, their Spanish the message file's.
func TestLeadershipNotesInSpanish(t *testing.T) {
	ctx := context.Background()
	svc := loaded(t, nil)
	acs, err := svc.Leaders(ctx, "administration-for-childrens-services")
	if err != nil || acs.NoteKey.IsZero() || acs.Note != acs.NoteKey.String() || !strings.HasPrefix(acs.Note, "The roster release as of 2026-06-12 prints") {
		t.Fatalf("ACS leadership: %+v %v", acs, err)
	}
	if es := acs.NoteKey.In("es"); es != "La edición del padrón a fecha de 2026-06-12 imprime un responsable principal; un padrón fechado no prueba quién ocupa el cargo hoy." {
		t.Errorf("ACS leadership in Spanish: %q", es)
	}
	if p := acs.Nodes[0].Person; p == nil || p.Note != p.NoteKey.String() || !strings.HasPrefix(p.NoteKey.In("es"), "No existe un expediente") {
		t.Errorf("person link: %+v", p)
	}
	ds, err := svc.Disagreements(ctx, "police-department")
	if err != nil || len(ds) == 0 {
		t.Fatalf("disagreements: %+v %v", ds, err)
	}
	for _, d := range ds {
		if d.Note != d.NoteKey.String() || strings.Contains(d.NoteKey.In("es"), "sources") {
			t.Errorf("disagreement %s: %q / %q", d.Field, d.Note, d.NoteKey.In("es"))
		}
		for _, v := range d.Values {
			if v.Note != "" && (v.NoteKey == nil || v.NoteKey.String() != v.Note || v.NoteKey.In("es") == v.Note) {
				t.Errorf("disagreement %s value %+v", d.Field, v)
			}
		}
	}
	as, err := svc.Roster(ctx, []string{"administration-for-childrens-services", "no-such-agency"})
	if err != nil || len(as) != 2 {
		t.Fatalf("roster: %+v %v", as, err)
	}
	for _, a := range as {
		if a.Note != a.NoteKey.String() || strings.Contains(a.NoteKey.In("es"), "roster") || !strings.Contains(a.NoteKey.In("es"), "padrón") {
			t.Errorf("roster of %s: %q / %q", a.AgencyID, a.Note, a.NoteKey.In("es"))
		}
	}
}
