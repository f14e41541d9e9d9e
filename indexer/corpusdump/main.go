// Command corpusdump writes the bundled City Record notices as JSON lines
// (id, title, text): the corpus model/distill.py counts word frequencies
// in. Run from the repository root:
//
//	go run ./indexer/corpusdump > /tmp/corpus.jsonl
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/recordwatch/recordwatch/indexer/source/crol"
	"github.com/recordwatch/recordwatch/internal/entity"
)

func main() {
	notices, errs := crol.LoadDir(os.DirFS("testdata/sample"), "crol", entity.DefaultCrosswalk())
	if len(notices) == 0 {
		fmt.Fprintln(os.Stderr, "corpusdump: no notices under testdata/sample/crol (run from the repository root)", errs)
		os.Exit(1)
	}
	enc := json.NewEncoder(os.Stdout)
	for _, n := range notices {
		if err := enc.Encode(map[string]string{"id": n.RequestID, "title": n.Title, "text": n.Text}); err != nil {
			fmt.Fprintln(os.Stderr, "corpusdump:", err)
			os.Exit(1)
		}
	}
}
