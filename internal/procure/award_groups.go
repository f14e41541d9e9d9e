package procure

// AwardGroup is the awards of one vendor stem or one agency as every
// surface shows them (each adds its link to the profile): a vendor group
// is named by its stem (Stem, and ID and Name alike), an agency group by
// its canonical id and name.
type AwardGroup struct {
	Stem   string `json:"stem,omitempty"`
	ID     string `json:"id"`
	Name   string `json:"name"`
	Count  int    `json:"count"`
	Amount Money  `json:"amount"`
}

// VendorGroups are the award totals by vendor stem, when grouped so.
func (a Awards) VendorGroups() []AwardGroup {
	var out []AwardGroup
	for _, g := range a.TopVendors {
		out = append(out, AwardGroup{Stem: g.Value, ID: g.Value, Name: g.Value, Count: g.Count, Amount: AwardSum(g.Count, g.ValidAmounts, g.Amount).Money()})
	}
	return out
}

// AgencyGroups are the award totals by agency, when grouped so.
func (a Awards) AgencyGroups() []AwardGroup {
	var out []AwardGroup
	for _, g := range a.Agencies {
		out = append(out, AwardGroup{ID: g.ID, Name: g.Name, Count: g.Count, Amount: AwardSum(g.Count, g.ValidAmounts, g.Amount).Money()})
	}
	return out
}
