package watch

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/recordwatch/recordwatch/internal/entity"
	"github.com/recordwatch/recordwatch/internal/record"
)

// AwardIdentity is an award notice's procurement identity with the
// fingerprint of its facts, as "identity=fingerprint" (short hashes), or
// "" for a notice that is not an award or intent to award. The identity is
// the PIN, the agency, the title, the vendor (by stem) and the start date:
// the City Record republishes an award under a new request id with all of
// them unchanged. The facts are what a republication may correct: the
// amount, the end date, the notice type, the due date and the vendor's
// name as written.
func AwardIdentity(n record.Notice) string {
	if !strings.Contains(strings.ToLower(n.NoticeType), "award") {
		return ""
	}
	stem := n.VendorStem
	if stem == "" && n.VendorName != "" {
		stem = entity.VendorStem(n.VendorName)
	}
	if entity.NormalizePIN(n.PIN) == "" && stem == "" {
		return "" // nothing that names the procurement
	}
	day := ""
	if !n.StartDate.IsZero() {
		day = n.StartDate.In(record.NewYork).Format("2006-01-02")
	}
	id := shortHash(entity.NormalizePIN(n.PIN), n.AgencyID, strings.ToLower(strings.Join(strings.Fields(n.Title), " ")), stem, day)
	amount := "none"
	if n.AmountValid {
		amount = strconv.FormatFloat(n.Amount, 'f', 2, 64)
	}
	due := ""
	if !n.DueDate.IsZero() {
		due = n.DueDate.UTC().Format("2006-01-02")
	}
	end := ""
	if !n.EndDate.IsZero() {
		end = n.EndDate.UTC().Format("2006-01-02")
	}
	return id + "=" + shortHash(amount, end, n.NoticeType, due, strings.Join(strings.Fields(n.VendorName), " "))
}

func shortHash(parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:8])
}

// SplitIdentity returns the identity and fingerprint halves of an
// AwardIdentity value.
func SplitIdentity(k string) (identity, facts string) {
	identity, facts, _ = strings.Cut(k, "=")
	return identity, facts
}

// MaxFacts bounds a watch's remembered award identities.
const MaxFacts = 8 * FeedLimit
