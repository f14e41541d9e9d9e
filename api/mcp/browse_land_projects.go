package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/recordwatch/recordwatch/internal/land"
	"github.com/recordwatch/recordwatch/internal/record"
)

type browseLandIn struct {
	Procedure         string `json:"procedure,omitempty"`
	Action            string `json:"action,omitempty"`
	Stage             string `json:"stage,omitempty"`
	Effect            string `json:"effect,omitempty"`
	Borough           string `json:"borough,omitempty"`
	CommunityDistrict string `json:"community_district,omitempty"`
	BBL               string `json:"bbl,omitempty"`
	Status            string `json:"status,omitempty"`
	ULURP             string `json:"ulurp,omitempty"`
	CEQR              string `json:"ceqr,omitempty"`
	Word              string `json:"word,omitempty"`
	Limit             int    `json:"limit,omitempty"`
	Cursor            string `json:"cursor,omitempty"`
}

func browseLandProjects(d *Deps) Tool {
	t := newTool(d, "browse_land_projects", "Browse land-use projects", ClassRead,
		"Bounded, stable pages of land-use (ZAP) projects, latest milestone first (undated last), read from every project "+
			"held: completed, withdrawn and past projects are included. Filters combine (every one given must match): procedure "+
			"(ulurp, non_ulurp, elurp, or unknown when not stated; each has a definition checked against the Charter, elurp its own (§197-e); unknown has no normative layer), action code (ZM zoning map, ZR zoning text, ZS special permit, "+
			"HA urban development action area, PQ acquisition …), stage (the latest procedure stage the project's records place "+
			"it at: "+strings.Join(land.StageIDs(), ", ")+", or unknown), effect (a derived regulatory effect such as upzone, "+
			"only where a held file states one), borough, community district (M11, K03 …), BBL (10 digits), public status "+
			"(filed, noticed, in public review, completed), application (ULURP) number, CEQR number and words of the project's "+
			"name, applicant or brief (its address): every word given, in any order, any letter case, with or without accents. by_status counts every match by "+
			"status. Follow next_cursor for the rest. The scope says what was searched; no rows never proves no project exists.",
		[]int{1},
		func(s *jsonschema.Schema) {
			prop(s, "procedure").Enum = []any{"ulurp", "non_ulurp", "elurp", "unknown", "ULURP", "Non-ULURP", "ELURP"}
			prop(s, "procedure").Description = "Review procedure."
			bounded(s, "action", 2, "Action code, two letters (ZM, ZR, ZS, HA, PQ …).")
			prop(s, "action").Pattern = land.ActionPattern
			stages := []any{}
			for _, st := range append(land.StageIDs(), "unknown") {
				stages = append(stages, st)
			}
			prop(s, "stage").Enum = stages
			prop(s, "stage").Description = "Latest procedure stage the project's records place it at."
			bounded(s, "effect", 40, "Derived regulatory effect (upzone, downzone …), attributed to the file that states it.")
			bounded(s, "borough", 20, "Borough, by name or code (Y: citywide).")
			prop(s, "borough").Enum = stringEnum(land.BoroughSpellings())
			bounded(s, "community_district", 6, "Community district: borough letter and number, as M11 or K03.")
			prop(s, "community_district").Pattern = land.CommunityDistrictPattern
			bounded(s, "bbl", 10, "BBL: 10 digits (borough, block, lot).")
			prop(s, "bbl").Pattern = land.BBLPattern
			bounded(s, "status", 40, "Public status: filed, noticed, in public review, completed.")
			bounded(s, "ulurp", 30, "Application (ULURP) number, with or without prefix letter and spaces (C 240046 HAM).")
			prop(s, "ulurp").Pattern = land.ULURPPattern
			bounded(s, "ceqr", 20, "Environmental review (CEQR) number, exact (24DCP123M).")
			bounded(s, "word", record.InputBound("word").MaxLen, fmt.Sprintf("Words (1 to %d) of the project's name, applicant or brief (its address): a project holding every one, in any order, any letter case and accents (Timbale Terrace).", land.MaxNameWords))
			limitProp(s, land.MaxLimit)
			cursorProp(s)
		},
		func(ctx context.Context, d *Deps, in browseLandIn) (land.Page, error) {
			page, err := d.land().Browse(ctx, land.Filter{Procedure: in.Procedure, Action: in.Action, Stage: in.Stage, Effect: in.Effect,
				Borough: in.Borough, CommunityDistrict: in.CommunityDistrict, BBL: in.BBL, Status: in.Status, ULURP: in.ULURP, CEQR: in.CEQR, Word: in.Word},
				in.Cursor, limitOr(in.Limit, land.DefaultLimit))
			if err != nil {
				return page, err
			}
			// the lots placed as the list page and its JSON twin place them
			return page, d.land().PlaceLots(ctx, &page)
		})
	t.Limits = []string{"limit: at most 100 projects per page (default 20); follow next_cursor for the rest"}
	t.Examples = []Example{
		{"Completed projects", map[string]any{"status": "completed"}},
		{"ULURP zoning map amendments in Queens", map[string]any{"procedure": "ulurp", "action": "ZM", "borough": "Queens"}},
		{"A project by its name", map[string]any{"word": "Timbale Terrace"}},
	}
	return t
}
