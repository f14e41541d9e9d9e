package feed

import (
	"bytes"
	"encoding/json"
)

// JSONFeedVersion is the version URL of JSON Feed 1.1.
const JSONFeedVersion = "https://jsonfeed.org/version/1.1"

// AboutURL documents the "_recordwatch" extension objects.
const AboutURL = "https://github.com/recordwatch/recordwatch#feeds"

type jsonFeed struct {
	Version     string        `json:"version"`
	Title       string        `json:"title"`
	HomePageURL string        `json:"home_page_url,omitempty"`
	FeedURL     string        `json:"feed_url,omitempty"`
	Description string        `json:"description,omitempty"`
	UserComment string        `json:"user_comment,omitempty"`
	Authors     []Author      `json:"authors,omitempty"`
	Language    string        `json:"language"`
	Extension   jsonFeedScope `json:"_recordwatch"`
	Items       []jsonItem    `json:"items"`
}

// jsonFeedScope is the feed-level "_recordwatch" object.
type jsonFeedScope struct {
	About      string `json:"about"`
	ID         string `json:"id"`
	Updated    string `json:"updated"`
	TTLSeconds int    `json:"ttl_seconds,omitempty"`
	Formats    Links  `json:"formats"`
	Rights     string `json:"rights,omitempty"`
	Scope
}

type jsonItem struct {
	ID            string   `json:"id"`
	URL           string   `json:"url,omitempty"`
	ExternalURL   string   `json:"external_url,omitempty"`
	Title         string   `json:"title,omitempty"`
	ContentText   string   `json:"content_text"`
	Summary       string   `json:"summary,omitempty"`
	DatePublished string   `json:"date_published,omitempty"`
	DateModified  string   `json:"date_modified,omitempty"`
	Tags          []string `json:"tags,omitempty"`
	Extension     any      `json:"_recordwatch,omitempty"`
}

// JSON renders f as a JSON Feed 1.1 document. "items" is always present
// (an empty list when nothing matched), every item has content_text, and the
// feed's scope is in the "_recordwatch" extension object.
func JSON(f Feed) ([]byte, error) {
	out := jsonFeed{
		Version:     JSONFeedVersion,
		Title:       oneLine(f.Title),
		HomePageURL: f.HomeURL,
		FeedURL:     f.Self.JSON,
		Description: clean(f.Description),
		UserComment: clean(f.Rights),
		Language:    "en-US",
		Extension: jsonFeedScope{About: AboutURL, ID: f.ID, Updated: rfc3339(f.Updated),
			TTLSeconds: int(f.TTL.Seconds()), Formats: f.Self, Rights: clean(f.Rights), Scope: f.Scope},
		Items: []jsonItem{},
	}
	if out.Extension.Sources == nil {
		out.Extension.Sources = []Source{}
	}
	if out.Extension.AbsenceRules == nil {
		out.Extension.AbsenceRules = []string{}
	}
	if out.Extension.Filter == nil {
		out.Extension.Filter = map[string]string{}
	}
	if f.Author.Name != "" {
		out.Authors = []Author{f.Author}
	}
	for _, it := range f.Items {
		published, updated := itemDates(it, f.Updated)
		ji := jsonItem{ID: it.ID, URL: it.URL, ExternalURL: it.SourceURL, Title: oneLine(it.Title),
			ContentText: clean(it.Content), Summary: clean(it.Summary), DateModified: rfc3339(updated),
			Extension: it.Extension}
		if ji.ContentText == "" {
			ji.ContentText = ji.Summary
		}
		if !published.IsZero() {
			ji.DatePublished = rfc3339(published)
		}
		for _, c := range it.Categories {
			if c = oneLine(c); c != "" {
				ji.Tags = append(ji.Tags, c)
			}
		}
		out.Items = append(out.Items, ji)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
