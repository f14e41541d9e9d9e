package entity

// Joins between records: the rules that tie a City Record notice to a
// contract registration or a payment, each answered with the method that
// made the join and how sure it is. They are written once, here, and used
// both when records are indexed (indexer/link stores the links it finds)
// and when a page asks for the records a PIN joins (internal/procure).

// Join methods besides the PIN methods (PINExact, PINRenewal, PINPrefix).
const (
	// JoinContractID: a payment that names the contract id of a
	// registration already joined (its link follows the registration's).
	JoinContractID = "contract"
	// JoinSource: the source itself joined the record to the notice (a
	// registered-contract row carrying a City Record request id).
	JoinSource = "source"
	// JoinVendorAgency: the same vendor stem at the same agency, with no
	// PIN in common; a lead, never the same procurement.
	JoinVendorAgency = "vendor_agency"
	// JoinContractIDField: a payment whose own contract id field is the
	// contract id asked for, read where no registration of it is held.
	JoinContractIDField = "contract_id_field"
)

// Confidences of a join, strongest first.
const (
	// ConfidenceHigh: the same procurement (the same PIN, another renewal
	// of it, or a payment naming the contract of such a registration).
	ConfidenceHigh = "high"
	// ConfidenceMedium: a join another party made (a source's own join).
	ConfidenceMedium = "medium"
	// ConfidenceLow: related, maybe another procurement (only the
	// 10-character base PIN, or only vendor and agency in common).
	ConfidenceLow = "low"
)

// JoinMethods says what each join method means, for pages and tools.
var JoinMethods = map[string]string{
	PINExact:            "the record carries the same PIN",
	PINRenewal:          "the same PIN once renewal suffixes (R001 …) are removed: another renewal of the same contract",
	PINPrefix:           "the same 10-character base PIN (agency, fiscal year, method, sequence): a solicitation and the awards and registrations that followed it",
	JoinContractID:      "a payment that names the contract id of a registration linked by PIN",
	JoinSource:          "the source itself joined this registration to the notice",
	JoinVendorAgency:    "the same vendor (name stem) at the same agency, with no PIN in common",
	JoinContractIDField: "the payment's own contract id is this contract id, exactly (the registration itself is not held)",
}

// Join is how two records are tied: the method, how sure the join is and
// whether the second record belongs to the same procurement as the first
// (only then are their amounts summed together).
type Join struct {
	Method          string `json:"method"`
	Confidence      string `json:"confidence"`
	SameProcurement bool   `json:"same_procurement"`
}

// Note says what the join's method means.
func (j Join) Note() string { return JoinMethods[j.Method] }

// JoinPINs joins two records by their PINs as the sources wrote them:
// exact and renewal joins are the same procurement (high), a shared
// 10-character base only is not (low). ok is false when the PINs are not
// linked or either is junk (PINLink).
func JoinPINs(a, b string) (Join, bool) {
	m, ok := PINLink(a, b)
	if !ok {
		return Join{}, false
	}
	if m == PINPrefix {
		return Join{Method: m, Confidence: ConfidenceLow}, true
	}
	return Join{Method: m, Confidence: ConfidenceHigh, SameProcurement: true}, true
}

// JoinByContract is the join of a payment naming the contract id of a
// registration joined by reg: the payment is exactly as sure, and as much
// the same procurement, as its registration.
func JoinByContract(reg Join) Join {
	return Join{Method: JoinContractID, Confidence: reg.Confidence, SameProcurement: reg.SameProcurement}
}

// JoinBySource is the join a source made itself (a contract row naming
// the notice's request id).
func JoinBySource() Join {
	return Join{Method: JoinSource, Confidence: ConfidenceMedium, SameProcurement: true}
}

// JoinVendorAtAgency joins two records by vendor stem and agency id: both
// must be present, the same vendor (SameVendor: a stem stored under an
// earlier rule meets its current form), the same agency, and the stem long
// enough to match by (StemLongEnough). It is a lead (low), never the same
// procurement.
func JoinVendorAtAgency(stemA, agencyA, stemB, agencyB string) (Join, bool) {
	if stemA == "" || agencyA == "" || !SameVendor(stemA, stemB) || agencyA != agencyB || !StemLongEnough(VendorStem(stemA)) {
		return Join{}, false
	}
	return Join{Method: JoinVendorAgency, Confidence: ConfidenceLow}, true
}

// PINKeys are the forms a PIN is matched in: key the whole PIN
// (NormalizePIN), base its 10-character base (PINBase: "" for a junk or
// non-standard PIN).
func PINKeys(pin string) (key, base string) {
	return NormalizePIN(pin), PINBase(pin)
}
