// Package docs holds Recordwatch's reference pages (Markdown) and the test
// that keeps them true: every figure a page quotes beside a code
// constant's name is that constant's value, every relative link resolves,
// and the README stays a short map.
package docs
