package zap

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

// Land sources: each file a project is read from is attributed to one.
const (
	SrcPortal    = "zap-portal"
	SrcProjects  = "hgx4-8ukb"
	SrcSeed      = "hgx4-8ukb-seed"
	SrcBBLs      = "2iga-a6mk"
	SrcCentroids = CentroidSource
	SrcBKBP      = "4j6i-9rmr"
	SrcMNBP      = "gt5i-dmde"
	SrcCouncil   = "council-land-use"
)

var sourceLabels = map[string]string{
	SrcPortal:    "ZAP portal API project answer (NYC Department of City Planning, zap.planning.nyc.gov)",
	SrcProjects:  "NYC Open Data hgx4-8ukb ZAP projects (rows as materialized by cityscroll from SODA, 2026-08-22)",
	SrcSeed:      "NYC Open Data hgx4-8ukb ZAP projects (18 of 35 columns, cityscroll product seed)",
	SrcBBLs:      "NYC Open Data 2iga-a6mk ZAP project BBLs (cityscroll product seed)",
	SrcCentroids: CentroidLabel,
	SrcBKBP:      "NYC Open Data 4j6i-9rmr Brooklyn Borough President ULURP recommendations",
	SrcMNBP:      "NYC Open Data gt5i-dmde Manhattan Borough President ULURP recommendation PDFs",
	SrcCouncil:   "NYC Council land-use items (Legistar, as mirrored by jehiah/nyc_legislation)",
}

// Land is what a directory of land files gives: projects merged by
// project id, events of other publishers, and how many rows were read.
type Land struct {
	Projects []land.Project
	Events   []land.Event
	Rows     int
	Merged   int
}

// obs is what one source row says about one project.
type obs struct {
	src, file     string
	observedAt    time.Time
	name          string
	publicStatus  string
	projectStatus string
	procedure     string
	brief         string
	applicant     string
	keywords      []string
	boroughs      []string
	cds           []string
	councils      []string
	actions       []land.Action
	ceqr          land.Environmental
	dates         map[string]time.Time
	current       *land.DatedFact
	milestones    []land.Milestone
	recs          []land.Recommendation
	effect        *land.Effect
	lots          []string
}

var projectIDRE = regexp.MustCompile(`^P?[0-9]{4}[MXKQRY][0-9]{4}$`)

// ValidProjectID reports whether s is a ZAP project id (2024K0240, the
// legacy P2012Q0076, citywide 2026Y0360).
func ValidProjectID(s string) bool { return projectIDRE.MatchString(s) }

// zapTime reads a ZAP timestamp (UTC "Z", or floating New York time) as
// New York time; zero when empty or malformed.
func zapTime(s string) time.Time {
	if d, ok := strings.CutSuffix(strings.TrimSpace(s), "T00:00:00.000Z"); ok {
		// a date-only field (noticed date …) written as midnight UTC: the day as written
		return record.ParseDate(d)
	}
	t := record.ParseDate(s)
	if t.IsZero() {
		return t
	}
	return t.In(record.NewYork)
}

// ReadLand reads every land file under dir: ZAP portal answers, Open Data
// project rows (JSON or CSV), project BBLs (CSV), MapPLUTO centroids,
// borough president recommendation rows and Council land-use items.
// Projects are merged by project id, each value attributed; a bad row is
// rejected with its reason.
func ReadLand(fsys fs.FS, dir string) (Land, []error) {
	var out Land
	var errs []error
	byID := map[string][]obs{}
	bbls := map[string]*projectLots{}
	centroids := map[string]land.Point{}
	var order []string
	add := func(id string, o obs) {
		if _, ok := byID[id]; !ok {
			order = append(order, id)
		}
		byID[id] = append(byID[id], o)
	}
	err := fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		lower := strings.ToLower(p)
		if !strings.HasSuffix(lower, ".json") && !strings.HasSuffix(lower, ".csv") {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		file := path.Base(p)
		if strings.HasSuffix(lower, ".csv") {
			n, e := readCSV(data, file, add, bbls)
			out.Rows += n
			errs = append(errs, e...)
			return nil
		}
		trimmed := bytes.TrimSpace(data)
		if len(trimmed) > 0 && trimmed[0] == '[' {
			var rows []map[string]any
			if err := json.Unmarshal(trimmed, &rows); err != nil {
				errs = append(errs, fmt.Errorf("%s: not a JSON array of rows: %w", file, err))
				return nil
			}
			for i, r := range rows {
				out.Rows++
				switch {
				case r["project_id"] != nil && r["bbl"] != nil: // a 2iga-a6mk row (SODA JSON)
					id, bbl := str(r["project_id"]), str(r["bbl"])
					if !ValidProjectID(id) || !ValidBBL(bbl) {
						errs = append(errs, fmt.Errorf("%s row %d: project %q, BBL %q: not a ZAP project id and a BBL", file, i+1, id, bbl))
						continue
					}
					addBBL(bbls, id, bbl, str(r["validated"]), file)
				case r["project_id"] != nil:
					o, id, err := warehouseRow(r, file)
					if err != nil {
						errs = append(errs, fmt.Errorf("%s row %d: %w", file, i+1, err))
						continue
					}
					add(id, o)
				case r["ulurp_number_s"] != nil || r["ulurp_application_number"] != nil:
					e, err := bpRow(r, file, i)
					if err != nil {
						errs = append(errs, fmt.Errorf("%s row %d: %w", file, i+1, err))
						continue
					}
					out.Events = append(out.Events, e)
				default:
					errs = append(errs, fmt.Errorf("%s row %d: not a land row (no project_id or ULURP number)", file, i+1))
				}
			}
			return nil
		}
		var probe map[string]json.RawMessage
		if json.Unmarshal(trimmed, &probe) != nil {
			errs = append(errs, fmt.Errorf("%s: not a JSON object or array", file))
			return nil
		}
		out.Rows++
		switch {
		case probe["data"] != nil:
			o, id, err := portalProject(trimmed, file)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", file, err))
				return nil
			}
			add(id, o)
		case probe["File"] != nil && probe["History"] != nil:
			e, err := councilItem(trimmed, file)
			if err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", file, err))
				return nil
			}
			out.Events = append(out.Events, e)
		default:
			out.Rows--
			var m map[string]struct {
				Lat *float64 `json:"lat"`
				Lon *float64 `json:"lon"`
			}
			if err := json.Unmarshal(trimmed, &m); err != nil {
				errs = append(errs, fmt.Errorf("%s: not a land file", file))
				return nil
			}
			for bbl, pt := range m {
				out.Rows++
				if !ValidBBL(bbl) || pt.Lat == nil || pt.Lon == nil {
					errs = append(errs, fmt.Errorf("%s: %q is not a BBL with a latitude and longitude", file, bbl))
					continue
				}
				centroids[bbl] = land.Point{Lat: *pt.Lat, Lon: *pt.Lon, Source: SrcCentroids}
			}
		}
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	for id := range bbls {
		if _, ok := byID[id]; !ok {
			order = append(order, id)
			byID[id] = nil
		}
	}
	sort.Strings(order)
	for _, id := range order {
		p := merge(id, byID[id], bbls[id], centroids)
		out.Merged += max(len(byID[id])-1, 0)
		out.Projects = append(out.Projects, p)
	}
	sort.Slice(out.Events, func(i, j int) bool { return out.Events[i].ID < out.Events[j].ID })
	return out, errs
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

// splitList splits a ";" or "," list, dropping empty tokens.
func splitList(s string) []string {
	var out []string
	for _, t := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == ',' }) {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// warehouseRow reads an hgx4-8ukb row (JSON, as materialized by
// cityscroll): the 19 ZAP columns, and cityscroll's derived regulatory
// effect, attributed to cityscroll.
func warehouseRow(r map[string]any, file string) (obs, string, error) {
	id := str(r["project_id"])
	if !ValidProjectID(id) {
		return obs{}, "", fmt.Errorf("%q is not a ZAP project id", id)
	}
	o := rowObs(func(k string) string { return str(r[k]) }, SrcProjects, file)
	if eff := str(r["regulatory_effect"]); eff != "" && eff != "unknown" {
		basis := "derived by cityscroll (regulatory_effect_basis) from the project brief's zoning districts; not ZAP data"
		if b, ok := r["regulatory_effect_basis"].(map[string]any); ok && str(b["method"]) != "" {
			basis += "; method " + str(b["method"])
		}
		o.effect = &land.Effect{Value: eff, Confidence: str(r["regulatory_effect_confidence"]), Basis: basis, Source: SrcProjects}
	}
	return o, id, nil
}

// rowObs reads the hgx4-8ukb columns of a row (JSON or CSV).
func rowObs(get func(string) string, src, file string) obs {
	o := obs{src: src, file: file, name: get("project_name"), publicStatus: get("public_status"), projectStatus: get("project_status"),
		procedure: get("ulurp_non"), applicant: get("primary_applicant"), dates: map[string]time.Time{}}
	if b := get("borough"); b != "" {
		o.boroughs = []string{b}
	}
	for _, cd := range splitList(get("community_district")) {
		if n := land.CommunityDistrict(cd); n != "" && !contains(o.cds, n) {
			o.cds = append(o.cds, n)
		}
	}
	if cc := get("cc_district"); cc != "" {
		o.councils = splitList(cc)
	}
	numbers, keys := land.ULURPKeys(get("ulurp_numbers"))
	codes := splitList(get("actions"))
	var seen []string
	for i, k := range keys {
		base := strings.TrimSuffix(k, "(A)")
		code := base[len(base)-3 : len(base)-1]
		o.actions = append(o.actions, land.Action{Code: code, ULURPNumber: numbers[i], ULURPKey: k, Source: src})
		seen = append(seen, code)
	}
	for _, c := range codes {
		c = strings.ToUpper(c)
		if !contains(seen, c) {
			seen = append(seen, c)
			o.actions = append(o.actions, land.Action{Code: c, Source: src})
		}
	}
	for _, k := range []string{"app_filed_date", "noticed_date", "certified_referred", "approval_date", "completed_date"} {
		if t := zapTime(get(k)); !t.IsZero() {
			o.dates[k] = t
		}
	}
	if m := get("current_milestone"); m != "" {
		o.current = &land.DatedFact{Name: m, Date: zapTime(get("current_milestone_date")), Source: src}
	}
	return o
}

func contains(vs []string, v string) bool {
	for _, x := range vs {
		if x == v {
			return true
		}
	}
	return false
}

// readCSV reads an hgx4-8ukb seed (project_id, project_name …) or a
// 2iga-a6mk BBL file (project_id, bbl …).
func readCSV(data []byte, file string, add func(string, obs), bbls map[string]*projectLots) (int, []error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	head, err := r.Read()
	if err != nil {
		return 0, []error{fmt.Errorf("%s: %w", file, err)}
	}
	col := map[string]int{}
	for i, h := range head {
		col[strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))] = i
	}
	if _, ok := col["project_id"]; !ok {
		return 0, []error{fmt.Errorf("%s: not a land CSV (no project_id column)", file)}
	}
	_, isBBL := col["bbl"]
	rows := 0
	var errs []error
	for line := 2; ; line++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		rows++
		if err != nil {
			errs = append(errs, fmt.Errorf("%s line %d: %w", file, line, err))
			continue
		}
		get := func(k string) string {
			if i, ok := col[k]; ok && i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		id := get("project_id")
		if !ValidProjectID(id) {
			errs = append(errs, fmt.Errorf("%s line %d: %q is not a ZAP project id", file, line, id))
			continue
		}
		if isBBL {
			bbl := get("bbl")
			if !ValidBBL(bbl) {
				errs = append(errs, fmt.Errorf("%s line %d: %q is not a BBL", file, line, bbl))
				continue
			}
			addBBL(bbls, id, bbl, get("validated"), file)
			continue
		}
		add(id, rowObs(get, SrcSeed, file))
	}
	return rows, errs
}

// addBBL records a lot of a project once (a duplicate pair with another
// validated_date is the same lot; a blank validated is kept blank unless
// another row says).
func addBBL(bbls map[string]*projectLots, id, bbl, validated, file string) {
	if bbls[id] == nil {
		bbls[id] = &projectLots{validated: map[string]string{}}
	}
	bbls[id].file = file
	if v, ok := bbls[id].validated[bbl]; !ok || v == "" {
		bbls[id].validated[bbl] = validated
	}
}

// projectLots are the BBL rows of one project: validated per BBL, and
// the file they were read from.
type projectLots struct {
	file      string
	validated map[string]string
}

// portalProject reads a ZAP portal answer (JSON:API: data.attributes with
// dcp-* names; included actions, milestones and dispositions).
func portalProject(data []byte, file string) (obs, string, error) {
	var doc struct {
		Data struct {
			Type       string         `json:"type"`
			ID         string         `json:"id"`
			Attributes map[string]any `json:"attributes"`
		} `json:"data"`
		Included []struct {
			Type       string         `json:"type"`
			ID         string         `json:"id"`
			Attributes map[string]any `json:"attributes"`
		} `json:"included"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return obs{}, "", fmt.Errorf("not a ZAP portal project: %w", err)
	}
	a := doc.Data.Attributes
	get := func(k string) string { return str(a[k]) }
	id := doc.Data.ID
	if id == "" {
		id = get("dcp-name")
	}
	if doc.Data.Type != "projects" || !ValidProjectID(id) {
		return obs{}, "", fmt.Errorf("not a ZAP portal project (type %q, id %q)", doc.Data.Type, id)
	}
	o := obs{src: SrcPortal, file: file, name: get("dcp-projectname"), publicStatus: get("dcp-publicstatus"), procedure: get("dcp-ulurp-nonulurp"),
		brief: get("dcp-projectbrief"), applicant: get("dcp-applicant-customer-value"), dates: map[string]time.Time{}}
	if kw, ok := a["keywords"].([]any); ok {
		for _, k := range kw {
			o.keywords = append(o.keywords, str(k))
		}
	}
	if b := get("dcp-borough"); b != "" {
		o.boroughs = []string{b}
	}
	for _, cd := range splitList(get("dcp-validatedcommunitydistricts")) {
		if n := land.CommunityDistrict(cd); n != "" && !contains(o.cds, n) {
			o.cds = append(o.cds, n)
		}
	}
	if bs, ok := a["bbls"].([]any); ok {
		for _, b := range bs {
			o.lots = append(o.lots, str(b))
		}
	}
	o.ceqr = land.Environmental{CEQRNumber: get("dcp-ceqrnumber"), ReviewType: get("dcp-ceqrtype"), Assessment: get("dcp-easeis"), Source: SrcPortal}
	for k, name := range map[string]string{"dcp-certifiedreferred": "certified_referred", "dcp-noticeddate": "noticed_date", "dcp-projectcompleted": "project_completed", "dcp-lastmilestonedate": "last_milestone_date"} {
		if t := zapTime(get(k)); !t.IsZero() {
			o.dates[name] = t
		}
	}
	actionCode := map[string]string{}
	for _, inc := range doc.Included {
		at := func(k string) string { return str(inc.Attributes[k]) }
		switch inc.Type {
		case "actions":
			num := at("dcp-ulurpnumber")
			act := land.Action{Code: at("dcp-action-value"), Name: at("dcp-name"), ULURPNumber: num, ULURPKey: land.ULURPKey(num), Status: at("statuscode"), Source: SrcPortal}
			actionCode[inc.ID] = act.Code
			o.actions = append(o.actions, act)
		case "milestones":
			prefix, _ := land.SplitMilestone(at("dcp-name"))
			m := land.Milestone{Name: strings.TrimSpace(at("dcp-name")), Action: prefix, Milestone: at("milestonename"), DisplayName: at("display-name"),
				Status: at("statuscode"), ActualStart: zapTime(at("dcp-actualstartdate")), ActualEnd: zapTime(at("dcp-actualenddate")),
				PlannedStart: zapTime(at("dcp-plannedstartdate")), PlannedEnd: zapTime(at("dcp-plannedcompletiondate")),
				ReviewMeeting: zapTime(at("dcp-reviewmeetingdate")), Outcome: at("outcome"), Source: SrcPortal}
			if m.Milestone == "" {
				_, m.Milestone = land.SplitMilestone(m.Name)
			}
			if n, ok := inc.Attributes["dcp-milestonesequence"].(float64); ok {
				m.Sequence = int(n)
			}
			o.milestones = append(o.milestones, m)
		}
	}
	for _, inc := range doc.Included {
		if inc.Type != "dispositions" {
			continue
		}
		at := func(k string) string { return str(inc.Attributes[k]) }
		r := land.Recommendation{Body: at("dcp-recommendationsubmittedby-value"), Name: at("dcp-name"), Action: actionCode[at("dcp-projectaction-value")],
			HearingDate: zapTime(at("dcp-dateofpublichearing")), HearingLocation: at("dcp-publichearinglocation"),
			VoteDate: zapTime(at("dcp-dateofvote")), Received: zapTime(at("dcp-datereceived")), Status: at("statuscode"), Source: SrcPortal}
		switch at("dcp-representing") {
		case "Community Board":
			r.Actor, r.Recommendation = "community_board", at("dcp-communityboardrecommendation")
		case "Borough President":
			r.Actor, r.Recommendation = "borough_president", at("dcp-boroughpresidentrecommendation")
		case "Borough Board":
			r.Actor, r.Recommendation = "borough_board", at("dcp-boroughboardrecommendation")
		default:
			r.Actor = land.Token(at("dcp-representing"))
		}
		if r.Actor == "" {
			continue
		}
		for _, act := range o.actions {
			if act.Code == r.Action {
				r.ULURPNumber = act.ULURPNumber
			}
		}
		o.recs = append(o.recs, r)
	}
	sort.SliceStable(o.milestones, func(i, j int) bool { return o.milestones[i].Sequence < o.milestones[j].Sequence })
	return o, id, nil
}

// bpRow reads a borough president recommendation row: 4j6i-9rmr
// (Brooklyn; ulurp_number_s, borough_president, recommendation_date) or
// gt5i-dmde (Manhattan PDFs; ulurp_application_number, date, pdf_download).
func bpRow(r map[string]any, file string, i int) (land.Event, error) {
	e := land.Event{Type: "bp_recommendation", Actor: "borough_president", File: file}
	var list string
	if v := str(r["ulurp_number_s"]); v != "" || r["ulurp_number_s"] != nil {
		list = v
		e.Source, e.Body = SrcBKBP, "Brooklyn Borough President"
		e.Name, e.Outcome = str(r["ulurp_application_name"]), str(r["borough_president"])
		e.Date = zapTime(str(r["recommendation_date"]))
	} else {
		list = str(r["ulurp_application_number"])
		e.Source, e.Body = SrcMNBP, "Manhattan Borough President"
		e.Name, e.URL = strings.TrimSpace(strings.ReplaceAll(str(r["project"]), "\u00a0", " ")), str(r["pdf_download"])
		e.Date = zapTime(str(r["date"]))
		if !e.Date.IsZero() && e.Date.Year() == 1970 {
			e.Date = time.Time{}
			e.SetDateNote(land.EventEpochDate(str(r["date"])))
		} else if e.Date.IsZero() {
			e.SetDateNote(land.NEventNoDate)
		}
	}
	e.SourceLabel = sourceLabels[e.Source]
	e.ULURPNumbers, e.ULURPKeys = land.ULURPKeys(list)
	if len(e.ULURPKeys) == 0 {
		return e, fmt.Errorf("no application number in %q", list)
	}
	e.ID = e.Source + ":" + strings.Join(e.ULURPKeys, "+")
	if !e.Date.IsZero() {
		e.ID += ":" + e.Date.Format("2006-01-02")
	} else {
		e.ID += ":" + strconv.Itoa(i+1)
	}
	return e, nil
}

var (
	councilULURP      = regexp.MustCompile(`\(([A-Z]\s?[0-9]{6}\s?[A-Z]{3})\)`)
	councilTitleULURP = regexp.MustCompile(`(?i)^\s*applications?\s+(?:numbers?|nos?\.)\s+((?:[A-Z]\s?[0-9]{6}[A-Z]?\s?[A-Z]{3}(?:\s?\(A\))?(?:\s*(?:,|and|&)\s*)?)+)`)
)

// sameSet reports whether two key lists hold the same keys.
func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for _, x := range a {
		if !contains(b, x) {
			return false
		}
	}
	return true
}

// councilItem reads a Council land-use item (Legistar matter as mirrored
// by jehiah/nyc_legislation): the application number in its name or
// title, its status and its history.
func councilItem(data []byte, file string) (land.Event, error) {
	var m struct {
		File, Name, Title, StatusName, BodyName string
		PassedDate                              string
		History                                 []struct {
			Date, Action, BodyName string
			EventID                int
		}
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return land.Event{}, fmt.Errorf("not a Council land-use item: %w", err)
	}
	e := land.Event{ID: SrcCouncil + ":" + m.File, Type: "council_item", Actor: "council", Body: "City Council (" + m.BodyName + ")",
		Name: m.File + ": " + m.Name, Outcome: m.StatusName, Source: SrcCouncil, SourceLabel: sourceLabels[SrcCouncil], File: file}
	// the item's own numbers: in parentheses in its name, and those its
	// title opens with ("Application number C 250304 PQK …"); numbers the
	// title names elsewhere (related applications) are not the item's.
	// Precision first: when name and title disagree the item is not read.
	var nameNums, nameKeys []string
	for _, g := range councilULURP.FindAllStringSubmatch(m.Name, -1) {
		if k := land.ULURPKey(g[1]); k != "" && !contains(nameKeys, k) {
			nameKeys, nameNums = append(nameKeys, k), append(nameNums, g[1])
		}
	}
	var titleNums, titleKeys []string
	if g := councilTitleULURP.FindStringSubmatch(m.Title); g != nil {
		titleNums, titleKeys = land.ULURPKeys(g[1])
	}
	switch {
	case len(nameKeys) > 0 && len(titleKeys) > 0 && !sameSet(nameKeys, titleKeys):
		return e, fmt.Errorf("%s: rejected: its name gives application number(s) %s but its title %s; unsure, not linked", m.File,
			strings.Join(nameNums, ", "), strings.Join(titleNums, ", "))
	case len(nameKeys) > 0:
		e.ULURPKeys, e.ULURPNumbers = nameKeys, nameNums
	default:
		e.ULURPKeys, e.ULURPNumbers = titleKeys, titleNums
	}
	if len(e.ULURPKeys) == 0 {
		return e, fmt.Errorf("%s: no application number in its name or at the start of its title", m.File)
	}
	// Council dates are New York clock times written with "Z".
	local := func(s string) time.Time { return record.ParseDate(strings.TrimSuffix(s, "Z")) }
	if t := local(m.PassedDate); !t.IsZero() {
		e.Date = t
		e.SetDateNote(land.NEventPassedDate)
	}
	for _, h := range m.History {
		st := land.EventStep{Date: local(h.Date), Action: h.Action, Body: h.BodyName}
		if h.EventID > 0 { // the Legistar event the action was taken at (meetings source: "legistar:<id>")
			st.Meeting = "legistar:" + strconv.Itoa(h.EventID)
		}
		e.Steps = append(e.Steps, st)
	}
	return e, nil
}

// merge merges what every source says about one project: the portal's
// value first, then the Open Data row's, then the seed's; a field on
// which sources disagree is a conflict with each value attributed.
func merge(id string, os []obs, lots *projectLots, centroids map[string]land.Point) land.Project {
	rank := map[string]int{SrcPortal: 0, SrcProjects: 1, SrcSeed: 2}
	sort.SliceStable(os, func(i, j int) bool { return rank[os[i].src] < rank[os[j].src] })
	p := land.Project{ID: id, URL: land.PortalURL + id, Boroughs: []string{}, CommunityDistricts: []string{}, Lots: []land.Lot{},
		Actions: []land.Action{}, Dates: []land.DatedFact{}, Milestones: []land.Milestone{}, Recommendations: []land.Recommendation{},
		Sources: []land.Attribution{}, Conflicts: []land.Conflict{}, Links: []land.NoticeLink{}}
	field := func(name string, val func(o obs) string, set *string) {
		var vals []land.AttributedValue
		distinct := map[string]bool{}
		for _, o := range os {
			v := val(o)
			if v == "" {
				continue
			}
			if *set == "" {
				*set = v
			}
			vals = append(vals, land.AttributedValue{Value: v, Source: o.src})
			distinct[strings.ToLower(v)] = true
		}
		if len(distinct) > 1 {
			p.Conflicts = append(p.Conflicts, land.Conflict{Field: name, Values: vals})
		}
	}
	field("name", func(o obs) string { return o.name }, &p.Name)
	field("public_status", func(o obs) string { return o.publicStatus }, &p.PublicStatus)
	field("project_status", func(o obs) string { return o.projectStatus }, &p.ProjectStatus)
	field("review_procedure", func(o obs) string { return o.procedure }, &p.Procedure)
	field("applicant", func(o obs) string { return o.applicant }, &p.Applicant)
	var boroughs, cds string
	field("boroughs", func(o obs) string { return strings.Join(o.boroughs, ", ") }, &boroughs)
	field("community_districts", func(o obs) string { return strings.Join(o.cds, ", ") }, &cds)
	var ulurps string
	field("ulurp_numbers", func(o obs) string {
		var ks []string
		for _, a := range o.actions {
			if a.ULURPKey != "" {
				ks = append(ks, a.ULURPKey)
			}
		}
		sort.Strings(ks)
		return strings.Join(ks, ", ")
	}, &ulurps)
	var current string
	field("current_milestone", func(o obs) string {
		if o.current == nil {
			return ""
		}
		return strings.TrimSpace(o.current.Name) + " (" + o.current.Date.Format("2006-01-02") + ")"
	}, &current)
	var ceqr string
	field("ceqr_number", func(o obs) string { return o.ceqr.CEQRNumber }, &ceqr)
	for _, k := range []string{"app_filed_date", "noticed_date", "certified_referred", "approval_date", "completed_date", "project_completed"} {
		var first string
		field(k, func(o obs) string {
			if t, ok := o.dates[k]; ok {
				return t.Format("2006-01-02")
			}
			return ""
		}, &first)
	}
	p.ProcedureID = land.ProcedureIDOf(p.Procedure)
	for _, o := range os {
		p.Sources = append(p.Sources, land.Attribution{Source: o.src, Label: sourceLabels[o.src], File: o.file, ObservedAt: o.observedAt})
		if p.Brief == "" {
			p.Brief = o.brief
		}
		if len(p.Keywords) == 0 {
			p.Keywords = o.keywords
		}
		for _, b := range o.boroughs {
			if !contains(p.Boroughs, b) {
				p.Boroughs = append(p.Boroughs, b)
			}
		}
		for _, cd := range o.cds {
			if !contains(p.CommunityDistricts, cd) {
				p.CommunityDistricts = append(p.CommunityDistricts, cd)
			}
		}
		for _, c := range o.councils {
			if !contains(p.CouncilDistricts, c) {
				p.CouncilDistricts = append(p.CouncilDistricts, c)
			}
		}
		// actions: the first source's, then codes or numbers only others have
		for _, a := range o.actions {
			dup := false
			for i, h := range p.Actions {
				if (a.ULURPKey != "" && h.ULURPKey == a.ULURPKey) || (a.ULURPKey == "" && h.Code == a.Code) || (h.ULURPKey == "" && h.Code == a.Code) {
					dup = true
					if p.Actions[i].ULURPKey == "" && a.ULURPKey != "" {
						p.Actions[i].ULURPNumber, p.Actions[i].ULURPKey = a.ULURPNumber, a.ULURPKey
					}
				}
			}
			if !dup {
				p.Actions = append(p.Actions, a)
			}
		}
		if p.Environmental.CEQRNumber == "" && o.ceqr.CEQRNumber != "" {
			p.Environmental = o.ceqr
		}
		keys := make([]string, 0, len(o.dates))
		for k := range o.dates {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			same := false
			for i, f := range p.Dates {
				if f.Name == k && f.Date.Format("2006-01-02") == o.dates[k].Format("2006-01-02") {
					same = true
					p.Dates[i].AlsoIn = append(p.Dates[i].AlsoIn, o.src)
				}
			}
			if !same {
				p.Dates = append(p.Dates, land.DatedFact{Name: k, Date: o.dates[k], Source: o.src})
			}
			if (k == "last_milestone_date") && o.dates[k].After(p.LastDate) {
				p.LastDate = o.dates[k]
			}
		}
		if o.current != nil && p.CurrentMilestone == nil {
			p.CurrentMilestone = o.current
			if o.current.Date.After(p.LastDate) {
				p.LastDate = o.current.Date
			}
		}
		p.Milestones = append(p.Milestones, o.milestones...)
		p.Recommendations = append(p.Recommendations, o.recs...)
		if p.Effect == nil {
			p.Effect = o.effect
		}
	}
	// lots: the BBL file's, then the portal's; each with its sources
	lotAt := map[string]int{}
	addLot := func(bbl, src, validated string) {
		if !ValidBBL(bbl) {
			return
		}
		if i, ok := lotAt[bbl]; ok {
			if !contains(p.Lots[i].Sources, src) {
				p.Lots[i].Sources = append(p.Lots[i].Sources, src)
			}
			return
		}
		lotAt[bbl] = len(p.Lots)
		p.Lots = append(p.Lots, land.Lot{BBL: bbl, Borough: land.BoroughOfBBL(bbl), Validated: validated, Sources: []string{src}})
	}
	if lots != nil {
		var bblList []string
		for b := range lots.validated {
			bblList = append(bblList, b)
		}
		sort.Strings(bblList)
		for _, b := range bblList {
			addLot(b, SrcBBLs, lots.validated[b])
		}
		p.Sources = append(p.Sources, land.Attribution{Source: SrcBBLs, Label: sourceLabels[SrcBBLs], File: lots.file})
	}
	for _, o := range os {
		for _, b := range o.lots {
			addLot(b, o.src, "")
		}
	}
	sort.Slice(p.Lots, func(i, j int) bool { return p.Lots[i].BBL < p.Lots[j].BBL })
	for i := range p.Lots {
		l := &p.Lots[i]
		if c, ok := centroids[l.BBL]; ok {
			l.Centroid = &c
		} else {
			n := land.NoCentroidNote(l.BBL, len(centroids) > 0)
			l.NoCentroid, l.NoCentroidKey = n.String(), &n
		}
	}
	if len(p.Boroughs) == 0 {
		for _, l := range p.Lots {
			if !contains(p.Boroughs, l.Borough) {
				p.Boroughs = append(p.Boroughs, l.Borough)
			}
		}
	}
	return p
}
