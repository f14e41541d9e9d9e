// Package lru is a map bounded by its number of entries and their bytes,
// least recently used out first: the one eviction rule behind the search
// response cache (internal/search) and the embedded engine's per-segment
// caches (internal/search/embedded).
package lru

import (
	"container/list"
	"sync"
)

// Cache maps keys to values. The zero value is an empty cache, ready to
// use; it is safe for concurrent use.
type Cache[K comparable, V any] struct {
	mu    sync.Mutex
	order *list.List // of *entry[K, V], most recently used first
	byKey map[K]*list.Element
	bytes int64
}

type entry[K comparable, V any] struct {
	key  K
	val  V
	size int64
}

// Get returns the value under k and marks it used.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[k]; ok {
		c.order.MoveToFront(el)
		return el.Value.(*entry[K, V]).val, true
	}
	var zero V
	return zero, false
}

// Put keeps v under k, counted as size bytes, in place of any value there.
// Bounds are applied by Trim.
func (c *Cache[K, V]) Put(k K, v V, size int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey == nil {
		c.byKey, c.order = map[K]*list.Element{}, list.New()
	}
	if el, ok := c.byKey[k]; ok {
		c.remove(el)
	}
	c.byKey[k] = c.order.PushFront(&entry[K, V]{k, v, size})
	c.bytes += size
}

// Trim drops the least recently used entries until at most maxEntries
// (no bound when 0 or less) and maxBytes remain; the last entry put stays.
func (c *Cache[K, V]) Trim(maxEntries int, maxBytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.order != nil && c.order.Len() > 1 && ((maxEntries > 0 && c.order.Len() > maxEntries) || c.bytes > maxBytes) {
		c.remove(c.order.Back())
	}
}

// Remove drops the entry under k, if any.
func (c *Cache[K, V]) Remove(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[k]; ok {
		c.remove(el)
	}
}

// Clear drops every entry.
func (c *Cache[K, V]) Clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.byKey, c.order, c.bytes = nil, nil, 0
}

// Len is the number of entries.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.order == nil {
		return 0
	}
	return c.order.Len()
}

// Bytes is the sum of the entries' sizes.
func (c *Cache[K, V]) Bytes() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.bytes
}

// remove drops an entry; c.mu is held.
func (c *Cache[K, V]) remove(el *list.Element) {
	e := el.Value.(*entry[K, V])
	c.order.Remove(el)
	delete(c.byKey, e.key)
	c.bytes -= e.size
}
