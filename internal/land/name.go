package land

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

// A name search finds the projects holding every word asked, in any order,
// in their name, applicant, brief (the address) or keywords, whatever the
// letter case and accents (Tokens holds each word lower-cased and, when it
// has accents, also without them).
const (
	// MaxNameWords bounds the words of one name search.
	MaxNameWords = 8
	// MaxNameScan bounds the projects one name search of several words
	// reads: those holding its rarest word, narrowed by the other filters.
	MaxNameScan = 5000
	// MaxNameMatches bounds the projects a name search of several words
	// may match (they become the id filter of the page query).
	MaxNameMatches = search.MaxKeyValues
)

// NameWords are the words of s as a project's token key holds them: lower
// case, accents removed, each once, in the order written.
func NameWords(s string) []string {
	var out []string
	for _, w := range search.Words(s) {
		if w = entity.StripAccents(w); !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// HoldsWords reports whether a project record holds every word (NameWords)
// in its token key.
func HoldsWords(r search.Record, words []string) bool {
	held := r.Keys[KeyToken]
	for _, w := range words {
		if !slices.Contains(held, w) {
			return false
		}
	}
	return true
}

// RarestWord is the word of words held by the fewest projects that match
// keys (the other filters), and how many projects hold it.
func RarestWord(ctx context.Context, rs search.RecordReader, words []string, keys map[string][]string) (string, int, error) {
	rare, fewest := "", -1
	for _, w := range words {
		q := search.RecordQuery{Keys: withKey(keys, KeyToken, w), Sort: search.RecordSortID, Limit: 1}
		p, err := search.Find(ctx, rs, ProjectKind, q)
		if err != nil {
			return "", 0, err
		}
		if fewest < 0 || p.Total < fewest {
			rare, fewest = w, p.Total
		}
	}
	return rare, fewest, nil
}

// namedIDs are the ids of the projects matching keys that hold every word
// (two or more), read through the projects holding the rarest word.
// EINVALID when the words are too common to read that way.
func namedIDs(ctx context.Context, rs search.RecordReader, words []string, keys map[string][]string) ([]string, error) {
	rare, n, err := RarestWord(ctx, rs, words, keys)
	if err != nil || n == 0 {
		return nil, err
	}
	if n > MaxNameScan {
		return nil, record.InvalidNote("word", "land.error.word_common", quote(strings.Join(words, " ")), MaxNameScan)
	}
	var ids []string
	q := search.RecordQuery{Kinds: ProjectKind.Kinds(), Keys: withKey(keys, KeyToken, rare), Sort: search.RecordSortID, Limit: search.MaxRecordLimit}
	for {
		p, err := rs.FindRecords(ctx, q)
		if err != nil {
			return nil, err
		}
		for _, r := range p.Records {
			if HoldsWords(r, words) {
				ids = append(ids, r.ID)
			}
		}
		if len(ids) > MaxNameMatches {
			return nil, record.InvalidNote("word", "land.error.word_matches", MaxNameMatches, quote(strings.Join(words, " ")))
		}
		if p.NextCursor == "" || len(p.Records) == 0 {
			return ids, nil
		}
		q.Cursor = p.NextCursor
	}
}

// withKey is keys with one more key filter (keys is not changed).
func withKey(keys map[string][]string, k, v string) map[string][]string {
	out := maps.Clone(keys)
	if out == nil {
		out = map[string][]string{}
	}
	out[k] = []string{v}
	return out
}

// noProject is an id no project has: the id filter of a name search that
// matched none (an empty id filter would match every project).
const noProject = "none"
