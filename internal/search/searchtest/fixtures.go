package searchtest

import (
	"time"

	"github.com/recordwatch/recordwatch/internal/record"
	"github.com/recordwatch/recordwatch/internal/search"
)

func day(s string) time.Time {
	t, err := time.ParseInLocation("2006-01-02", s, record.NewYork)
	if err != nil {
		panic(err)
	}
	return t
}

// The fields the link stage derives (indexer/link), precomputed for the
// fixtures: this suite applies no identity rule (internal/search and its
// test support import no topic package, so no internal/entity), and
// indexer/link's TestSearchtestFixturesCarryTheLinkStagesFields checks
// every value here against the rules.
var (
	// noticeAgencies are the agency ids of the fixture notices' agencies
	// with no crosswalk (each agency its own id; its name as printed).
	noticeAgencies = map[string]string{
		"Administration for Children's Services": "administration-for-childrens-services",
		"City Planning Commission":               "city-planning-commission",
		"Citywide Administrative Services":       "citywide-administrative-services",
		"Correction":                             "correction",
		"Finance":                                "finance",
		"Health and Hospitals Corporation":       "health-and-hospitals-corporation",
		"Parks and Recreation":                   "parks-and-recreation",
		"Police":                                 "police",
	}
	// recordAgencies are the agency ids of the source records' agencies
	// under the default crosswalk.
	recordAgencies = map[string]string{
		"Aging":                                 "aging",
		"Department of Design and Construction": "design-and-construction",
		"Department of Education":               "education",
		"Queens Borough Public Library":         "public-library-queens",
	}
	// vendorStems are the vendor stems of the fixtures' vendor names.
	vendorStems = map[string]string{
		"CDE AIR CONDITIONING CO INC":                                 "CDE AIR CONDITIONING",
		"CROWN HEIGHTS PRESERVATION COMMITTEE CORP.":                  "CROWN HEIGHTS PRESERVATION COMMITTEE",
		"Diamond Point Yacht Club of the City of Brooklyn, Inc.":      "DIAMOND POINT YACHT CLUB OF THE CITY OF BROOKLYN",
		"NEW CASTLE COMMUNICATIONS INC":                               "NEW CASTLE COMMUNICATIONS",
		"SECURUS TECHNOLOGIES INC":                                    "SECURUS TECHNOLOGIES",
		"Securus Technologies, Inc.":                                  "SECURUS TECHNOLOGIES",
		"SKANSKA-TREVCON JV":                                          "SKANSKA TREVCON JV",
		"Williamsbridge NAACP Early Childhood Education Center":       "WILLIAMSBRIDGE NAACP EARLY CHILDHOOD EDUCATION CENTER",
		"Williamsbridge NAACP Early Childhood Education Center, Inc.": "WILLIAMSBRIDGE NAACP EARLY CHILDHOOD EDUCATION CENTER",
	}
	// pinKeys are the PIN keys (pin_key, pin_base) of the source records'
	// PINs.
	pinKeys = map[string][2]string{
		"85015B0065001C021": {"85015B0065001C021", "85015B0065"},
		"85013B0017001C237": {"85013B0017001C237", "85013B0017"},
		"85013B0017001C235": {"85013B0017001C235", "85013B0017"},
		"12522P0001001R004": {"12522P0001001R004", "12522P0001"},
	}
)

// derived is a precomputed derived value (must: a fixture's value is
// missing from its table, a mistake in the fixtures).
func derived[V any](table map[string]V, raw string) V {
	v, ok := table[raw]
	if !ok && raw != "" {
		panic("searchtest: no derived value for fixture value " + raw)
	}
	return v
}

// notice builds a fixture notice the way the normalizer and the link
// stage would.
func notice(id, section, typ, agency, title, pin, start, due, amount, vendor, body string) record.Notice {
	n := record.Notice{
		RequestID: id, Source: record.SourceCROL, Section: section, NoticeType: typ,
		AgencyRaw: agency, AgencyID: derived(noticeAgencies, agency), AgencyName: agency, Title: title, PIN: pin,
		VendorName: vendor, VendorStem: derived(vendorStems, vendor), Body: body, Text: record.PlainText(body),
		OfficialURL: record.OfficialURL(id), OpenDataURL: record.OpenDataURL(id),
		Raw: map[string]string{"request_id": id, "section_name": section, "type_of_notice_description": typ,
			"agency_name": agency, "short_title": title},
	}
	if body != "" {
		n.Raw["additional_description_1"] = body
	}
	n.Lenses = record.LensesFor(section, n.AgencyName, title, n.Text)
	n.Lens = n.Lenses[0]
	if start != "" {
		n.StartDate = day(start)
	}
	if due != "" {
		n.DueDate, n.DueRolling = record.ParseDue(due)
	}
	if amount != "" {
		n.AmountRaw = amount
		n.Amount, n.AmountValid = record.ParseAmount(amount)
		if !n.AmountValid {
			n.Amount = 0
		}
	}
	return n
}

// Fixtures are notices whose values are copied from real City Record rows
// (the 2014 DCAS export and 2026 Open Data snapshots), with a few variations
// that exercise rules the sample does not show (a rolling deadline, an
// entry-error amount).
func Fixtures() []search.Doc {
	ns := []record.Notice{
		notice("20140930007", "Procurement", "Award", "Administration for Children's Services",
			"CHILD CARE SERVICES", "06814L0041001N001", "2014-10-07", "", "1158788",
			"Williamsbridge NAACP Early Childhood Education Center",
			"Pursuant to PPB Rule 3-04(b)(iii)\r\n\r\nCHILD CARE SERVICES - Negotiated Acquisition - PIN# 06814L0041001N001 - AMT: $1,158,788.00 - TO: Williamsbridge NAACP Early Childhood Education Center, 680 E. 219th Street, Bronx, NY 10467."),
		notice("20141031001", "Procurement", "Award", "Parks and Recreation",
			"PARKS ENTERS INTO GREEN MARKETS AGREEMENT WITH GROWNYC", "SSA B40-O", "2014-11-05", "", "-1", "",
			"The Department of Parks and Recreation has entered into a license agreement with GrowNYC for the operation of Green Markets in city parks."),
		notice("20141007014", "Procurement", "Award", "Parks and Recreation",
			"NOTICE OF AWARD TO DIAMOND POINT YACHT CLUB OF THE CITY OF BROOKLYN, INC. FOR THE OPERATION OF DIAMOND POINT MARINA AT PAERDEGAT BASIN",
			"B4063-M", "2014-10-14", "", "-1", "Diamond Point Yacht Club of the City of Brooklyn, Inc.",
			"The Department of Parks and Recreation has awarded a concession for the operation of Diamond Point Marina at Paerdegat Basin, Brooklyn."),
		notice("20141006012", "Procurement", "Award", "Correction", "INMATE PHONE SYSTEM", "072201315MIS",
			"2014-10-10", "", "1", "Securus Technologies, Inc.",
			"INMATE PHONE SYSTEM - Renewal - PIN# 072201315MIS - AMT: $1.00 - TO: Securus Technologies, Inc., 14651 Dallas Parkway, Dallas, TX 75254."),
		notice("20260521015", "Procurement", "Award", "Correction", "INMATE CALLING SERVICES RENEWAL", "07219P0148001R002",
			"2026-06-02", "", "$6,700,000.00", "SECURUS TECHNOLOGIES INC",
			"Renewal of inmate calling services. AMT: $6,700,000.00 - TO: SECURUS TECHNOLOGIES INC."),
		notice("20260624038", "Procurement", "Solicitation", "Citywide Administrative Services",
			"85726B0061-INTEGRATED PEST MANAGEMENT AND RELATED SERVICES, CITYWIDE RE-AD", "85726B0061", "2026-07-01",
			"2026-08-10T14:00:00.000", "", "",
			"Integrated pest management and related services, citywide. Competitive sealed bids."),
		notice("20140131017", "Procurement", "Vendor List", "Health and Hospitals Corporation", "PREQUALIFIED VENDOR LIST",
			"", "2014-01-02", "2099-12-31T00:00:00.000", "", "",
			"The New York City Health and Hospitals Corporation is regularly soliciting bids for supplies and equipment."),
		notice("20130621104", "Property Disposition", "Notice", "Police",
			"The following listed property is in the custody, of the Property Clerk Division without claimants.", "",
			"2014-01-02", "", "", "",
			"<p> \t<strong><strong>OWNERS ARE WANTED BY THE PROPERTY CLERK DIVISION OF THE NEW YORK CITY POLICE DEPARTMENT.</strong></strong></p> <p> \t&nbsp;</p> <p> \tThe following listed property is in the custody, of the Property Clerk Division without claimants. Recovered, lost, abandoned property, obtained from prisoners, emotionally disturbed, intoxicated and deceased persons.</p> <p> \tMotor vehicles, boats, bicycles, business machines, cameras, calculating machines, electrical and optical property, furniture, furs, handbags, hardware, jewelry, photographic equipment, radios, robes, sound systems, surgical and musical instruments, tools, wearing apparel, communications equipment, computers, and other miscellaneous articles.</p> <p> \t<strong>INQUIRIES</strong></p> <p> \tInquiries relating to such property should be made in the Borough concerned, at the following office of the Property Clerk.</p>"),
		notice("20260714024", "Agency Rules", "Notice", "Finance",
			"Notice of Adoption of Amendment of Rules Relating to Utility Company Properties", "", "2026-07-22", "", "", "",
			"The Department of Finance hereby gives notice\u001apursuant to the City Administrative Procedure Act of the adoption of amended rules relating to utility company properties."),
		notice("20260806012", "Public Hearings and Meetings", "Public Hearing", "City Planning Commission",
			"PUBLIC HEARING ON ZONING MAP AMENDMENT, BOROUGH OF QUEENS", "", "2026-08-10", "", "", "",
			"<p>NOTICE IS HEREBY GIVEN that the City Planning Commission will hold a public hearing on application C 240139 ZMQ, a zoning map amendment.</p>"),
		notice("20260807004", "Public Hearings and Meetings", "Meeting", "Citywide Administrative Services",
			"MEETING OF THE FRANCHISE AND CONCESSION REVIEW COMMITTEE", "", "2026-08-12", "", "", "",
			"The Franchise and Concession Review Committee will hold a public meeting in the Spector Hall hearing room."),
		notice("20141118014", "Procurement", "Award", "Administration for Children's Services",
			"EXTRA ORDINARY NEEDS FOSTER CARE SERVICES", "06807N0007CNVN005", "2014-11-25", "", "12000000000",
			"Williamsbridge NAACP Early Childhood Education Center, Inc.",
			"EXTRA ORDINARY NEEDS FOSTER CARE SERVICES - Negotiated Acquisition - AMT: $12,000,000,000.00"),
	}
	ns[9].EventDate = time.Date(2026, 8, 19, 10, 0, 0, 0, record.NewYork)
	ns[9].EventPlace = "120 Broadway, New York, NY"
	ns[10].EventDate = time.Date(2026, 8, 27, 14, 30, 0, 0, record.NewYork)
	docs := make([]search.Doc, len(ns))
	for i, n := range ns {
		ps := record.SplitPassages(n.RequestID, n.Body)
		for j := range ps {
			ps[j].Source, ps[j].Section, ps[j].Lenses = n.Source, n.Section, n.Lenses
			ps[j].AgencyID, ps[j].Title, ps[j].StartDate, ps[j].SourceURL = n.AgencyID, n.Title, n.StartDate, n.OfficialURL
		}
		docs[i] = search.Doc{Notice: n, Passages: ps}
	}
	return docs
}
