package lru

import "testing"

func TestTrimDropsLeastRecentlyUsed(t *testing.T) {
	var c Cache[string, int]
	c.Put("a", 1, 10)
	c.Put("b", 2, 10)
	c.Put("c", 3, 10)
	if _, ok := c.Get("a"); !ok { // a is now the most recent
		t.Fatal("a is missing")
	}
	c.Trim(2, 100)
	if _, ok := c.Get("b"); ok || c.Len() != 2 {
		t.Fatalf("b should be gone (least recently used), %d entries left", c.Len())
	}
	c.Put("a", 4, 50) // replaces a: its size counts once
	if c.Bytes() != 60 {
		t.Fatalf("bytes %d, want 60", c.Bytes())
	}
	c.Trim(0, 55) // no entry bound, 55 bytes: c goes, a (last put) stays
	if v, ok := c.Get("a"); !ok || v != 4 || c.Len() != 1 {
		t.Fatalf("a=%d %v, %d entries", v, ok, c.Len())
	}
	c.Trim(0, 1) // the last entry put stays even over the bound
	if c.Len() != 1 {
		t.Fatalf("%d entries after trimming the last one", c.Len())
	}
	c.Remove("a")
	c.Clear()
	if c.Len() != 0 || c.Bytes() != 0 {
		t.Fatalf("cleared cache holds %d entries, %d bytes", c.Len(), c.Bytes())
	}
}
