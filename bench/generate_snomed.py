#!/usr/bin/env python3
"""Generate a synthetic, SNOMED-CT-scale RF2 Snapshot release for benchmarks.

The term-pair builder (DESIGN.md, ``termpairs``) has to run on a full SNOMED CT International release
(~350,000 concepts, > 1 million descriptions), and its exact Levenshtein nearest-neighbour search is the
expensive step. SNOMED CT is licensed, so benchmarks and CI cannot use the real release. This script
writes a release of the same size and layout whose *string statistics* resemble SNOMED CT:

* terms are built from real words read at generation time from the public sources in the mirror
  (BC5CDR and NCBI Disease titles, abstracts and entity mentions; WordNet 3.0 nouns by lexical file and
  hypernym subtree, pertainym adjectives, verbs; HPO names and exact synonyms), drawn with a Zipf-like
  frequency, inside SNOMED-style templates per semantic tag ("Fracture of left femur (disorder)",
  "Structure of renal artery (body structure)", "Product containing precisely ... (clinical drug)");
* FSN lengths, the share of multi-word names and the tag proportions follow SNOMED CT INT 2019-01;
* synonyms are realistic edits of the name (reorderings, dropped and added words, abbreviations,
  plural/singular, British spellings, word synonyms from WordNet, lay names, case-only variants), so
  FSN-SYN Levenshtein distances resemble Schulz & Juric (2020): mean ~16, ~17 % at distance <= 5;
* sibling concepts differing by one word (left/right, acute/chronic, another bone) give the
  small cross-concept nearest-neighbour distances that the Levenshtein negatives rely on;
* ~8 % inactive concepts, each with one POSSIBLY EQUIVALENT TO / REPLACED BY / SAME AS row (in the
  proportions of the paper's positives) to an active concept with a similar name;
* calibrated against Table 2 of the paper (SNOMED CT INT 2019-01-31) with the default seed: FSN-SYN
  450,166 positives (paper 451,256); mean Levenshtein of positives / random negatives / nearest valid
  term 16.1 / 40.0 / 8.2 (paper 16.53 / 37.40 / 7.97); SYN-SYN 758,402 (726,158), 19.2 / 38.9 / 9.4
  (16.57 / 35.10 / 8.00). The association datasets are about a third of the paper's size (one target
  per inactive concept) and their pools are sparser, so their nearest terms lie farther (16-21 against
  11-18);
* is-a (1-3 parents) and attribute relationships, language (US) refset, metadata concepts in the model
  component module.

Nothing from the source files is copied into the repository: they are read when the script runs.
The output is deterministic: the same ``--seed`` and ``--concepts`` give byte-identical files.

Usage::

    python bench/generate_snomed.py --out /tmp/snomed_scale [--concepts 360000] [--seed 0]
"""

from __future__ import annotations

import argparse
import functools
import gzip
import hashlib
import os
import random
import re
import sys
import time
import uuid
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import numpy as np

T = TypeVar("T")

RELEASE = "20190131"
DEFAULT_CONCEPTS = 360_000

# ---------------------------------------------------------------------------------------------------
# RF2 constants
# ---------------------------------------------------------------------------------------------------
CORE_MODULE = "900000000000207008"
MODEL_MODULE = "900000000000012004"
FSN_TYPE = "900000000000003001"
SYN_TYPE = "900000000000013009"
US_LANG_REFSET = "900000000000509007"
PREFERRED = "900000000000548007"
ACCEPTABLE = "900000000000549004"
POSSIBLY_EQUIVALENT_TO = "900000000000523009"
REPLACED_BY = "900000000000526001"
SAME_AS = "900000000000527005"
PRIMITIVE = "900000000000074008"
DEFINED = "900000000000073002"
CASE_INSENSITIVE = "900000000000448009"
CASE_SENSITIVE = "900000000000017005"
INITIAL_INSENSITIVE = "900000000000020002"
INFERRED = "900000000000011006"
EXISTENTIAL = "900000000000451002"
IS_A = "116680003"
FINDING_SITE = "363698007"
ASSOCIATED_MORPHOLOGY = "116676008"
CAUSATIVE_AGENT = "246075003"
PROCEDURE_SITE_DIRECT = "405813007"
METHOD = "260686004"
HAS_ACTIVE_INGREDIENT = "127489000"
HAS_DOSE_FORM = "411116001"
COMPONENT = "246093002"

HEADERS = {
    "concept": "id\teffectiveTime\tactive\tmoduleId\tdefinitionStatusId",
    "description": "id\teffectiveTime\tactive\tmoduleId\tconceptId\tlanguageCode\ttypeId\tterm"
    "\tcaseSignificanceId",
    "relationship": "id\teffectiveTime\tactive\tmoduleId\tsourceId\tdestinationId\trelationshipGroup"
    "\ttypeId\tcharacteristicTypeId\tmodifierId",
    "language": "id\teffectiveTime\tactive\tmoduleId\trefsetId\treferencedComponentId\tacceptabilityId",
    "association": "id\teffectiveTime\tactive\tmoduleId\trefsetId\treferencedComponentId"
    "\ttargetComponentId",
}

RELATIVE_PATHS = {
    "concept": f"Snapshot/Terminology/sct2_Concept_Snapshot_INT_{RELEASE}.txt",
    "description": f"Snapshot/Terminology/sct2_Description_Snapshot-en_INT_{RELEASE}.txt",
    "relationship": f"Snapshot/Terminology/sct2_Relationship_Snapshot_INT_{RELEASE}.txt",
    "language": f"Snapshot/Refset/Language/der2_cRefset_LanguageSnapshot-en_INT_{RELEASE}.txt",
    "association": f"Snapshot/Refset/Content/der2_cRefset_AssociationSnapshot_INT_{RELEASE}.txt",
}

# Association kinds in the proportion of the paper's positives (57,528 / 7,082 / 20,324).
ASSOCIATION_KINDS = (
    ("possibly_equivalent_to", POSSIBLY_EQUIVALENT_TO, 57_528),
    ("replaced_by", REPLACED_BY, 7_082),
    ("same_as", SAME_AS, 20_324),
)

# Release dates (effectiveTime) with weights: most content dates from the first SNOMED CT release.
RELEASE_DATES = [f"{y}{md}" for y in range(2002, 2019) for md in ("0131", "0731")] + [RELEASE]
_RD_WEIGHTS = np.array([30.0] + [1.0] * (len(RELEASE_DATES) - 2) + [2.0])
RELEASE_DATE_P = _RD_WEIGHTS / _RD_WEIGHTS.sum()

UUID_NAMESPACE = uuid.UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8")  # RFC 4122 URL namespace

# ---------------------------------------------------------------------------------------------------
# Fixed concepts: root, top-level hierarchies, attributes and the metadata the release refers to.
# (id, FSN, module, parent id or "" for the root)
# ---------------------------------------------------------------------------------------------------
ROOT = "138875005"
MODEL_COMPONENT = "900000000000441003"
FIXED_CONCEPTS: tuple[tuple[str, str, str, str], ...] = (
    (ROOT, "SNOMED CT Concept (SNOMED RT+CTV3)", CORE_MODULE, ""),
    ("404684003", "Clinical finding (finding)", CORE_MODULE, ROOT),
    ("64572001", "Disease (disorder)", CORE_MODULE, "404684003"),
    ("71388002", "Procedure (procedure)", CORE_MODULE, ROOT),
    ("123037004", "Body structure (body structure)", CORE_MODULE, ROOT),
    ("49755003", "Morphologically abnormal structure (morphologic abnormality)", CORE_MODULE,
     "123037004"),
    ("410607006", "Organism (organism)", CORE_MODULE, ROOT),
    ("105590001", "Substance (substance)", CORE_MODULE, ROOT),
    ("373873005", "Pharmaceutical / biologic product (product)", CORE_MODULE, ROOT),
    ("362981000", "Qualifier value (qualifier value)", CORE_MODULE, ROOT),
    ("363787002", "Observable entity (observable entity)", CORE_MODULE, ROOT),
    ("243796009", "Situation with explicit context (situation)", CORE_MODULE, ROOT),
    ("272379006", "Event (event)", CORE_MODULE, ROOT),
    ("260787004", "Physical object (physical object)", CORE_MODULE, ROOT),
    ("123038009", "Specimen (specimen)", CORE_MODULE, ROOT),
    ("308916002", "Environment or geographical location (environment / location)", CORE_MODULE,
     ROOT),
    ("48176007", "Social context (social concept)", CORE_MODULE, ROOT),
    ("254291000", "Staging and scales (staging scale)", CORE_MODULE, ROOT),
    ("419891008", "Record artifact (record artifact)", CORE_MODULE, ROOT),
    ("78621006", "Physical force (physical force)", CORE_MODULE, ROOT),
    ("370115009", "Special concept (special concept)", CORE_MODULE, ROOT),
    ("363743006", "Navigational concept (navigational concept)", CORE_MODULE, "370115009"),
    ("410662002", "Concept model attribute (attribute)", CORE_MODULE, MODEL_COMPONENT),
    (IS_A, "Is a (attribute)", CORE_MODULE, "410662002"),
    (FINDING_SITE, "Finding site (attribute)", CORE_MODULE, "410662002"),
    (ASSOCIATED_MORPHOLOGY, "Associated morphology (attribute)", CORE_MODULE, "410662002"),
    (CAUSATIVE_AGENT, "Causative agent (attribute)", CORE_MODULE, "410662002"),
    (PROCEDURE_SITE_DIRECT, "Procedure site - Direct (attribute)", CORE_MODULE, "410662002"),
    (METHOD, "Method (attribute)", CORE_MODULE, "410662002"),
    (HAS_ACTIVE_INGREDIENT, "Has active ingredient (attribute)", CORE_MODULE, "410662002"),
    (HAS_DOSE_FORM, "Has manufactured dose form (attribute)", CORE_MODULE, "410662002"),
    (COMPONENT, "Component (attribute)", CORE_MODULE, "410662002"),
    (MODEL_COMPONENT, "SNOMED CT Model Component (metadata)", MODEL_MODULE, ROOT),
    (CORE_MODULE, "SNOMED CT core module (core metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (MODEL_MODULE, "SNOMED CT model component module (core metadata concept)", MODEL_MODULE,
     MODEL_COMPONENT),
    (FSN_TYPE, "Fully specified name (core metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (SYN_TYPE, "Synonym (core metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (PRIMITIVE, ("Not sufficiently defined by necessary conditions definition status "
     "(core metadata concept)"), MODEL_MODULE, MODEL_COMPONENT),
    (DEFINED, ("Sufficiently defined by necessary conditions definition status "
     "(core metadata concept)"), MODEL_MODULE, MODEL_COMPONENT),
    (CASE_INSENSITIVE, "Entire term case insensitive (core metadata concept)", MODEL_MODULE,
     MODEL_COMPONENT),
    (CASE_SENSITIVE, "Entire term case sensitive (core metadata concept)", MODEL_MODULE,
     MODEL_COMPONENT),
    (INITIAL_INSENSITIVE, "Only initial character case insensitive (core metadata concept)",
     MODEL_MODULE, MODEL_COMPONENT),
    (INFERRED, "Inferred relationship (core metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (EXISTENTIAL, "Existential restriction modifier (core metadata concept)", MODEL_MODULE,
     MODEL_COMPONENT),
    (US_LANG_REFSET, ("United States of America English language reference set "
     "(foundation metadata concept)"), MODEL_MODULE, MODEL_COMPONENT),
    (PREFERRED, "Preferred (foundation metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (ACCEPTABLE, "Acceptable (foundation metadata concept)", MODEL_MODULE, MODEL_COMPONENT),
    (POSSIBLY_EQUIVALENT_TO, ("POSSIBLY EQUIVALENT TO association reference set "
     "(foundation metadata concept)"), MODEL_MODULE, MODEL_COMPONENT),
    (REPLACED_BY, "REPLACED BY association reference set (foundation metadata concept)",
     MODEL_MODULE, MODEL_COMPONENT),
    (SAME_AS, "SAME AS association reference set (foundation metadata concept)", MODEL_MODULE,
     MODEL_COMPONENT),
)

# ---------------------------------------------------------------------------------------------------
# Semantic tags: share of active concepts (SNOMED CT INT 2019-01, approximately), top concept, module.
# ---------------------------------------------------------------------------------------------------
TAGS: tuple[tuple[str, float, str], ...] = (
    ("disorder", 21.0, "64572001"),
    ("finding", 10.5, "404684003"),
    ("procedure", 16.5, "71388002"),
    ("body structure", 9.6, "123037004"),
    ("organism", 9.4, "410607006"),
    ("substance", 7.3, "105590001"),
    ("product", 1.0, "373873005"),
    ("medicinal product", 2.6, "373873005"),
    ("medicinal product form", 1.2, "373873005"),
    ("clinical drug", 2.0, "373873005"),
    ("qualifier value", 2.7, "362981000"),
    ("observable entity", 2.5, "363787002"),
    ("situation", 1.1, "243796009"),
    ("event", 1.1, "272379006"),
    ("physical object", 1.3, "260787004"),
    ("morphologic abnormality", 1.4, "49755003"),
    ("regime/therapy", 0.7, "71388002"),
    ("occupation", 0.35, "48176007"),
    ("person", 0.1, "48176007"),
    ("environment", 0.35, "308916002"),
    ("geographic location", 0.1, "308916002"),
    ("specimen", 0.45, "123038009"),
    ("assessment scale", 0.4, "254291000"),
    ("staging scale", 0.05, "254291000"),
    ("tumor staging", 0.05, "254291000"),
    ("record artifact", 0.1, "419891008"),
    ("cell", 0.2, "123037004"),
    ("cell structure", 0.1, "123037004"),
    ("social concept", 0.1, "48176007"),
    ("ethnic group", 0.1, "48176007"),
    ("religion/philosophy", 0.03, "48176007"),
    ("navigational concept", 0.2, "363743006"),
    ("physical force", 0.05, "78621006"),
    ("disposition", 0.1, "362981000"),
    ("dose form", 0.15, "373873005"),
    ("basic dose form", 0.03, "373873005"),
    ("unit of presentation", 0.02, "373873005"),
    ("attribute", 0.3, "410662002"),
    ("core metadata concept", 0.1, MODEL_COMPONENT),
    ("foundation metadata concept", 0.3, MODEL_COMPONENT),
    ("linkage concept", 0.05, MODEL_COMPONENT),
)
MODEL_TAGS = frozenset({"core metadata concept", "foundation metadata concept", "linkage concept"})

# ---------------------------------------------------------------------------------------------------
# SNOMED-style skeleton vocabulary (frequent words, most frequent first). Content words come from the
# corpora and WordNet; these lists give the template words their Zipf-like recurrence.
# ---------------------------------------------------------------------------------------------------
ANATOMY_CORE = """skin|bone|eye|heart|lung|kidney|liver|brain|femur|knee|hip|shoulder|hand|foot|head|
neck|chest|abdomen|spine|tooth|ear|nose|mouth|breast|colon|stomach|urinary bladder|uterus|ovary|
prostate|thyroid gland|pancreas|spleen|esophagus|intestine|small intestine|large intestine|rectum|anus|
artery|vein|nerve|muscle|tendon|ligament|joint|finger|toe|thumb|wrist|ankle|elbow|forearm|upper arm|
thigh|lower leg|leg|arm|face|scalp|forehead|cheek|lip|tongue|palate|pharynx|larynx|trachea|bronchus|
pleura|diaphragm|pericardium|aorta|coronary artery|carotid artery|femoral artery|retina|cornea|lens|
iris|eyelid|conjunctiva|middle ear|inner ear|tympanic membrane|cervix uteri|vagina|vulva|testis|penis|
scrotum|urethra|ureter|renal pelvis|gallbladder|bile duct|duodenum|jejunum|ileum|cecum|appendix|
sigmoid colon|tibia|fibula|radius|ulna|humerus|clavicle|scapula|pelvis|sacrum|coccyx|rib|sternum|skull|
mandible|maxilla|vertebra|cervical spine|thoracic spine|lumbar spine|intervertebral disc|spinal cord|
cerebrum|cerebellum|brainstem|meninges|pituitary gland|adrenal gland|lymph node|bone marrow|
blood vessel|soft tissue|connective tissue|subcutaneous tissue|nail|hair follicle|sweat gland|
salivary gland|parotid gland|gum|tonsil|nasal sinus|nasal cavity|orbit|optic nerve|sciatic nerve|
ulnar nerve|median nerve|radial nerve|metacarpal bone|metatarsal bone|phalanx|calcaneus|talus|patella|
acetabulum|neck of femur|hip joint|knee joint|shoulder joint|ankle joint|wrist joint|rotator cuff|
meniscus|anterior cruciate ligament|Achilles tendon|upper limb|lower limb|trunk|back|buttock|groin|
perineum|umbilicus|axilla|popliteal fossa|mitral valve|aortic valve|tricuspid valve|pulmonary valve|
left ventricle|right ventricle|left atrium|right atrium|vena cava|portal vein|jugular vein|
subclavian artery|iliac artery|popliteal artery|cranial nerve|facial nerve|trigeminal nerve|
vagus nerve|brachial plexus|lumbar plexus|temporal lobe|frontal lobe|parietal lobe|occipital lobe|
hypothalamus|thalamus|basal ganglia|hippocampus|peritoneum|omentum|mesentery|retroperitoneum""".replace(
    "\n", "").split("|")

LATERALITY = ["left", "right", "bilateral"]
POSITION = ["upper", "lower", "anterior", "posterior", "medial", "lateral", "proximal", "distal",
            "superior", "inferior", "internal", "external", "deep", "superficial", "central",
            "peripheral", "dorsal", "ventral"]
MODIFIERS = ["acute", "chronic", "congenital", "primary", "secondary", "recurrent", "malignant",
             "benign", "traumatic", "severe", "mild", "moderate", "open", "closed", "acquired",
             "idiopathic", "familial", "hereditary", "infective", "allergic", "toxic", "subacute",
             "localized", "generalized", "diffuse", "focal", "multiple", "partial", "complete",
             "intermittent", "persistent", "drug-induced", "juvenile", "neonatal", "postoperative",
             "nontraumatic", "obstructive", "degenerative", "inflammatory", "atypical",
             "complicated", "uncomplicated", "early onset", "late onset", "transient", "simple",
             "mixed", "unilateral", "nodular", "ulcerative", "hemorrhagic", "necrotizing",
             "pathological", "stress", "compound", "comminuted", "displaced", "nondisplaced"]
DISORDER_HEADS = ["disorder", "fracture", "injury", "neoplasm", "malignant neoplasm", "disease",
                  "ulcer", "infection", "lesion", "inflammation", "carcinoma", "dislocation",
                  "abscess", "cyst", "laceration", "contusion", "hemorrhage", "stenosis",
                  "obstruction", "deformity", "congenital anomaly", "atrophy", "hypertrophy",
                  "hyperplasia", "dysplasia", "necrosis", "infarction", "thrombosis", "embolism",
                  "aneurysm", "calculus", "fistula", "hernia", "prolapse", "rupture", "tear",
                  "open wound", "burn", "sprain", "strain", "pain", "polyp", "adenoma", "sarcoma",
                  "lymphoma", "melanoma", "tumor", "syndrome", "deficiency", "insufficiency",
                  "failure", "dysfunction", "degeneration", "edema", "fibrosis", "sclerosis",
                  "calcification", "agenesis", "hypoplasia", "aplasia", "atresia", "malformation",
                  "secondary malignant neoplasm", "carcinoma in situ", "benign neoplasm",
                  "neoplasm of uncertain behavior", "superficial injury", "crushing injury",
                  "foreign body", "blister", "abrasion", "avulsion", "amputation", "contracture",
                  "ankylosis", "instability", "effusion", "erosion", "perforation", "dilatation",
                  "spasm", "paralysis", "neuropathy", "myopathy", "arthropathy", "ischemia",
                  "granuloma", "papilloma", "nevus", "hematoma"]
FINDING_HEADS = ["pain", "swelling", "finding", "tenderness", "mass", "bleeding", "deformity",
                 "stiffness", "weakness", "numbness", "discharge", "rash", "itching", "lump",
                 "ulceration", "discoloration", "sensation", "movement", "abnormality", "wound",
                 "scar", "crepitus", "asymmetry", "redness", "tingling", "spasm", "cramp",
                 "tremor", "dryness", "warmth", "coldness", "induration", "hypersensitivity",
                 "observation", "symptom", "sign"]
CHANGE = ["abnormal", "normal", "decreased", "increased", "reduced", "impaired", "absent", "poor",
          "excessive", "altered", "unstable", "delayed", "asymmetrical", "diminished", "exaggerated",
          "brisk", "weak", "painful", "restricted"]
PROPERTIES = ["function", "tone", "size", "movement", "sensation", "reflex", "mobility", "strength",
              "color", "shape", "position", "range of motion", "temperature", "pulse", "volume",
              "pressure", "perfusion", "contour", "texture", "control", "coordination", "appearance",
              "growth", "development", "length", "girth", "consistency"]
PROC_HEADS = ["excision", "biopsy", "repair", "incision", "removal", "insertion", "replacement",
              "reconstruction", "resection", "drainage", "amputation", "transplantation",
              "examination", "injection", "aspiration", "catheterization", "closure", "fixation",
              "reduction", "revision", "debridement", "destruction", "ligation", "anastomosis",
              "implantation", "dilation", "irrigation", "exploration", "manipulation", "suture",
              "grafting", "embolization", "ablation", "stabilization", "decompression", "release",
              "division", "osteotomy", "arthrodesis", "arthroscopy", "endoscopy", "bypass",
              "stenting", "cauterization", "curettage", "evacuation", "extraction", "fusion",
              "lavage", "packing", "plication", "reattachment", "repositioning", "transposition",
              "closed reduction", "open reduction", "internal fixation", "excisional biopsy",
              "needle biopsy", "partial excision", "total excision", "radical excision",
              "local excision", "wide excision", "primary repair", "secondary repair",
              "surgical procedure", "operation", "procedure", "assessment", "inspection",
              "palpation", "percussion", "auscultation", "measurement", "monitoring", "care",
              "dressing", "application", "fitting", "adjustment", "immobilization", "traction",
              "radiotherapy", "brachytherapy", "cryotherapy", "laser therapy"]
PROC_QUALIFIERS = ["open", "closed", "partial", "total", "radical", "laparoscopic", "endoscopic",
                   "percutaneous", "primary", "secondary", "revision", "diagnostic", "therapeutic",
                   "emergency", "elective", "robot-assisted", "arthroscopic", "transurethral",
                   "transvaginal", "image-guided", "ultrasound-guided", "fluoroscopy guided",
                   "minimally invasive", "bilateral", "complete", "subtotal", "staged", "delayed"]
IMAGING = ["computed tomography", "magnetic resonance imaging", "ultrasonography", "radiography",
           "plain X-ray", "angiography", "fluoroscopy", "scintigraphy",
           "positron emission tomography", "Doppler ultrasonography", "computed tomography angiography",
           "mammography", "venography", "arthrography", "endoscopic ultrasonography",
           "contrast radiography", "bone densitometry", "radionuclide imaging"]
APPROACHES = ["anterior", "posterior", "lateral", "transabdominal", "transthoracic", "vaginal",
              "retroperitoneal", "endoscopic", "open", "laparoscopic", "percutaneous", "transoral",
              "transnasal", "transcervical", "subxiphoid", "infraclavicular"]
MEASURES = ["measurement", "level", "concentration", "count", "volume", "pressure", "rate", "ratio",
            "index", "temperature", "mass", "length", "width", "diameter", "circumference",
            "thickness", "area", "velocity", "flow", "capacity", "activity", "titer", "saturation",
            "clearance", "output", "score", "duration", "frequency"]
FLUIDS = ["serum", "plasma", "blood", "urine", "cerebrospinal fluid", "saliva", "sputum", "feces",
          "synovial fluid", "pleural fluid", "peritoneal fluid", "amniotic fluid", "venous blood",
          "arterial blood", "capillary blood", "whole blood", "24 hour urine", "semen",
          "tear fluid", "bile", "breath", "sweat", "pus", "gastric fluid"]
SALTS = ["hydrochloride", "sulfate", "sodium", "potassium", "acetate", "citrate", "phosphate",
         "chloride", "maleate", "tartrate", "mesylate", "bromide", "succinate", "fumarate",
         "calcium", "magnesium", "nitrate", "lactate", "gluconate", "besylate", "propionate",
         "dipropionate", "hydrobromide", "monohydrate", "trihydrate", "disodium", "hyclate"]
DOSE_FORMS = ["oral tablet", "oral capsule", "solution for injection", "cutaneous cream",
              "oral suspension", "eye drops", "oral solution", "prolonged-release oral tablet",
              "gastro-resistant oral tablet", "cutaneous ointment", "nasal spray",
              "powder for solution for injection", "rectal suppository", "transdermal patch",
              "powder for inhalation", "pressurized inhalation suspension", "chewable tablet",
              "orodispersible tablet", "vaginal cream", "ear drops", "oral granules",
              "solution for infusion", "cutaneous gel", "dispersible tablet", "effervescent tablet",
              "modified-release oral capsule", "film-coated oral tablet", "oral drops"]
ROUTES = ["oral", "parenteral", "cutaneous", "ocular", "nasal", "rectal", "vaginal", "pulmonary",
          "transdermal", "otic", "oromucosal", "sublingual", "intravenous", "subcutaneous",
          "intramuscular", "intrathecal"]
UNITS = ["milligram", "microgram", "gram", "milliliter", "unit", "international unit", "millimole",
         "nanogram", "liter", "percent"]
UNIT_ABBR = ["mg", "microgram", "g", "mL", "unit", "iu", "mmol", "ng", "%"]
NUMBERS = ["10", "5", "20", "100", "50", "25", "1", "250", "500", "2.5", "200", "40", "2", "12.5",
           "150", "400", "1000", "75", "300", "125", "600", "750", "800", "0.5", "3", "4", "15",
           "30", "60", "80", "160", "320", "0.25", "0.1", "7.5", "37.5", "62.5", "850", "1.5", "450"]
MORPHOLOGIES = ["fracture", "inflammation", "neoplasm", "carcinoma", "adenocarcinoma",
                "squamous cell carcinoma", "lesion", "ulcer", "cyst", "abscess", "hemorrhage",
                "necrosis", "fibrosis", "edema", "hyperplasia", "dysplasia", "metaplasia", "atrophy",
                "hypertrophy", "calcification", "stenosis", "obstruction", "dilatation", "thrombus",
                "embolus", "infarct", "scar", "granuloma", "polyp", "papilloma", "adenoma",
                "sarcoma", "lymphoma", "melanoma", "nevus", "wound", "laceration", "contusion",
                "abrasion", "hematoma", "aneurysm", "fistula", "hernia", "rupture", "tear",
                "dislocation", "erosion", "vesicle", "pustule", "plaque", "nodule", "mass",
                "deposit", "degeneration", "malformation", "anomaly", "hamartoma", "teratoma",
                "blastoma", "leiomyoma", "lipoma", "fibroma", "hemangioma", "neuroma"]
CELL_WORDS = ["epithelial", "squamous", "basal", "plasma", "mast", "stem", "germ", "giant", "clear",
              "goblet", "T", "B", "natural killer", "red blood", "white blood", "nerve", "muscle",
              "fat", "endothelial", "mesenchymal", "dendritic", "Langerhans", "Schwann", "Kupffer",
              "Purkinje", "Leydig", "Sertoli", "granulosa", "theca", "hair", "ganglion", "islet",
              "acinar", "ductal", "myoepithelial", "spindle", "round", "small", "large",
              "signet ring", "transitional", "columnar", "cuboidal"]
CELL_PARTS = ["nucleus", "cytoplasm", "cell membrane", "mitochondrion", "ribosome", "lysosome",
              "nucleolus", "cilium", "flagellum", "vacuole", "granule", "inclusion body",
              "cytoskeleton", "chromosome", "centriole", "Golgi apparatus",
              "endoplasmic reticulum"]
PERSONS_CORE = ["patient", "physician", "nurse", "surgeon", "midwife", "pharmacist", "dentist",
                "physiotherapist", "general practitioner", "consultant", "radiologist",
                "anesthetist", "psychiatrist", "psychologist", "social worker", "dietitian",
                "occupational therapist", "health visitor", "paramedic", "caregiver", "mother",
                "father", "child", "infant", "partner", "relative", "teacher", "driver", "farmer",
                "engineer", "laborer", "cleaner", "cook", "secretary", "soldier", "student"]
ENV_WORDS = ["unit", "ward", "clinic", "department", "center", "home", "facility", "room",
             "hospital", "service", "practice", "theater", "laboratory", "school", "workplace"]
ENV_QUALS = ["intensive care", "coronary care", "emergency", "outpatient", "inpatient", "day care",
             "maternity", "pediatric", "psychiatric", "surgical", "medical", "rehabilitation",
             "nursing", "residential", "community", "general practice", "accident and emergency",
             "high dependency", "neonatal intensive care", "operating", "private", "military",
             "rural", "urban", "mental health", "hospice", "dialysis", "burns"]
SCALE_WORDS = ["scale", "score", "index", "questionnaire", "assessment", "inventory", "test",
               "rating scale", "classification", "grading system", "staging system", "checklist",
               "assessment tool", "screening tool", "profile"]
EVENT_VERBS = ["Accident caused by", "Fall from", "Fall on", "Struck by", "Contact with",
               "Injury caused by", "Collision with", "Caught in", "Cut by", "Crushed by",
               "Explosion of", "Fire caused by", "Exposure to"]
THERAPY_WORDS = ["therapy", "education", "care", "management", "monitoring", "advice",
                 "counseling", "support", "regime", "program", "training", "prophylaxis"]
RELATIVES = ["Mother", "Father", "Sibling", "Child", "Partner", "Grandparent", "Cousin", "Aunt",
             "Uncle", "Daughter", "Son", "Spouse", "Guardian", "Relative"]
ROMAN = ["I", "II", "III", "IV", "IA", "IB", "IIA", "IIB", "IIIA", "IIIB", "IIIC", "IVA", "IVB",
         "0", "1", "2", "3", "4", "T1", "T2", "T3", "T4", "N0", "N1", "N2", "M0", "M1"]
SITUATION_PREFIXES = ["History of", "Family history of", "Suspected", "At risk of",
                      "No history of", "No family history of", "Personal history of",
                      "History of recurrent", "Past history of", "Fear of", "Risk of",
                      "Seen by", "Referral to", "Not for", "Under care of"]
SITUATION_SUFFIXES = ["absent", "not done", "declined", "contraindicated", "in remission",
                      "not indicated", "resolved", "suspected", "excluded", "planned", "refused",
                      "not tolerated", "deferred"]
CLAUSE_WORDS = frozenset({"due", "with", "without", "by", "using", "for", "in", "on", "into",
                          "from", "caused", "co-occurrent", "associated", "under", "during", "and",
                          "at", "to", "-"})
FUNCTION_WORDS = frozenset({"of", "and", "or", "the", "in", "on", "to", "by", "with", "without",
                            "for", "from", "due", "at", "as", "a", "an", "into", "not", "and/or",
                            "than", "per", "each", "only", "containing", "precisely"})

# Contrast pairs that make one-word siblings ("Fracture of left femur" / "... right femur").
CONTRASTS = [("left", "right"), ("upper", "lower"), ("anterior", "posterior"), ("medial", "lateral"),
             ("proximal", "distal"), ("superior", "inferior"), ("internal", "external"),
             ("acute", "chronic"), ("primary", "secondary"), ("benign", "malignant"),
             ("open", "closed"), ("partial", "total"), ("congenital", "acquired"),
             ("mild", "severe"), ("increased", "decreased"), ("high", "low"),
             ("superficial", "deep"), ("central", "peripheral"), ("unilateral", "bilateral"),
             ("male", "female"), ("early", "late"), ("simple", "complex"),
             ("complete", "incomplete"), ("direct", "indirect"), ("normal", "abnormal"),
             ("present", "absent"), ("single", "multiple"), ("dorsal", "ventral"),
             ("hyper", "hypo"), ("displaced", "nondisplaced"), ("complicated", "uncomplicated"),
             ("localized", "generalized"), ("recurrent", "persistent"), ("moderate", "severe"),
             ("milligram", "microgram")]

# Word-level synonyms beyond WordNet (US medical usage).
CURATED_SYNONYMS = [
    ("tumor", "neoplasm"), ("tumor", "growth"), ("carcinoma", "cancer"), ("disorder", "disease"),
    ("structure", "part"), ("removal", "excision"), ("operation", "procedure"), ("injury", "trauma"),
    ("finding", "observation"), ("examination", "inspection"), ("hemorrhage", "bleeding"),
    ("infarction", "infarct"), ("abnormality", "anomaly"), ("inflammation", "inflammatory disease"),
    ("calculus", "stone"), ("laceration", "cut"), ("contusion", "bruise"), ("edema", "swelling"),
    ("pruritus", "itching"), ("dyspnea", "breathlessness"), ("pyrexia", "fever"),
    ("neoplasm", "new growth"), ("renal", "kidney"), ("hepatic", "liver"), ("cardiac", "heart"),
    ("pulmonary", "lung"), ("cerebral", "brain"), ("gastric", "stomach"), ("cutaneous", "skin"),
    ("ocular", "eye"), ("dental", "tooth"), ("osseous", "bone"), ("vascular", "blood vessel"),
    ("measurement", "estimation"), ("level", "concentration"), ("radiography", "X-ray"),
    ("ultrasonography", "ultrasound scan"), ("computed tomography", "CT scan"),
    ("magnetic resonance imaging", "MRI scan"), ("insertion", "placement"),
    ("replacement", "exchange"), ("repair", "correction"), ("drainage", "evacuation"),
    ("incision", "cut"), ("product", "medicine"), ("oral tablet", "tablet"),
    ("solution for injection", "injection"), ("fracture", "broken bone"),
    ("malignant neoplasm", "cancer"), ("secondary malignant neoplasm", "metastasis"),
    ("benign neoplasm", "benign tumor"), ("congenital anomaly", "birth defect"),
    ("pain", "ache"), ("ulcer", "ulceration"), ("failure", "insufficiency"), ("left", "L"),
    ("right", "R"), ("bilateral", "both sides"), ("entire", "whole"), ("disease", "illness"),
    ("physician", "doctor"), ("general practitioner", "GP"), ("caregiver", "carer"),
]

# Known abbreviations (phrase <-> acronym), used for abbreviation and expansion edits.
ABBREVIATIONS = [
    ("computed tomography", "CT"), ("magnetic resonance imaging", "MRI"),
    ("chronic obstructive pulmonary disease", "COPD"), ("myocardial infarction", "MI"),
    ("cerebrospinal fluid", "CSF"), ("electrocardiogram", "ECG"), ("electroencephalogram", "EEG"),
    ("human immunodeficiency virus", "HIV"), ("deep vein thrombosis", "DVT"),
    ("urinary tract infection", "UTI"), ("gastroesophageal reflux disease", "GERD"),
    ("anterior cruciate ligament", "ACL"), ("cerebrovascular accident", "CVA"),
    ("transient ischemic attack", "TIA"), ("positron emission tomography", "PET"),
    ("attention deficit hyperactivity disorder", "ADHD"), ("coronary artery bypass graft", "CABG"),
    ("body mass index", "BMI"), ("white blood cell", "WBC"), ("red blood cell", "RBC"),
    ("intensive care unit", "ICU"), ("accident and emergency", "A&E"),
    ("general practitioner", "GP"), ("on examination", "O/E"), ("history of", "H/O"),
    ("family history of", "FH:"), ("complaining of", "C/O"), ("left", "L"), ("right", "R"),
    ("not otherwise specified", "NOS"), ("deoxyribonucleic acid", "DNA"),
    ("immunoglobulin", "Ig"), ("intravenous", "IV"), ("intramuscular", "IM"),
    ("subcutaneous", "SC"), ("milligram", "mg"), ("microgram", "mcg"), ("milliliter", "mL"),
]

# US -> GB spelling fragments.
SPELLINGS = [("tumor", "tumour"), ("hemorrh", "haemorrh"), ("hemato", "haemato"),
             ("hemoglobin", "haemoglobin"), ("hemangio", "haemangio"), ("anemia", "anaemia"),
             ("emia", "aemia"), ("edema", "oedema"), ("esophag", "oesophag"), ("estrogen", "oestrogen"),
             ("pediatric", "paediatric"), ("orthoped", "orthopaed"), ("fetal", "foetal"),
             ("fetus", "foetus"), ("color", "colour"), ("behavior", "behaviour"),
             ("center", "centre"), ("fiber", "fibre"), ("liter", "litre"), ("ization", "isation"),
             ("ized", "ised"), ("anesthe", "anaesthe"), ("diarrhea", "diarrhoea"),
             ("gyneco", "gynaeco"), ("cecum", "caecum"), ("celiac", "coeliac"), ("labor", "labour"),
             ("sulfate", "sulphate"), ("sulfur", "sulphur"), ("etiolog", "aetiolog"),
             ("dyspnea", "dyspnoea"), ("apnea", "apnoea"), ("leukemia", "leukaemia"),
             ("ischemi", "ischaemi"), ("hemo", "haemo"), ("hema", "haema"), ("ameba", "amoeba"),
             ("archeo", "archaeo"), ("catalog", "catalogue"), ("program", "programme"),
             ("dialyz", "dialys"), ("analyz", "analys"), ("defense", "defence")]

CHEMICAL_SUFFIX_RE = re.compile(
    r"(ine|ol|ide|ate|one|ium|ane|ene|yl|cin|mycin|pam|pril|olol|sartan|azole|statin|mab|vir|"
    r"amide|azine|oxin|ase|gen|en)$")
CHEMICAL_PREFIXES = ["hydroxy", "methyl", "dimethyl", "ethyl", "chloro", "fluoro", "bromo",
                     "amino", "nor", "desmethyl", "dihydro", "tetrahydro", "acetyl", "oxo",
                     "nitro", "deoxy", "iso", "levo", "dextro", "thio", "carboxy", "propyl",
                     "phenyl", "benzyl", "cyano", "keto", "epi", "dehydro", "homo", "pro"]
TOKEN_RE = re.compile(r"[A-Za-z][A-Za-z'\-]*[A-Za-z]")
CLEAN_MENTION_RE = re.compile(r"^[A-Za-z][A-Za-z0-9 '\-]*[A-Za-z0-9]$")


# ---------------------------------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------------------------------
class Pool:
    """Words or phrases with Zipf(-Mandelbrot) weights by rank: ``p(rank r) ~ 1 / (r + q)^s``."""

    def __init__(self, items: Iterable[str], exponent: float = 1.0, offset: float = 2.7) -> None:
        unique = list(dict.fromkeys(i for i in items if i))
        if not unique:
            raise ValueError("empty vocabulary pool")
        self.items = np.array(unique, dtype=object)
        ranks = np.arange(1, len(unique) + 1, dtype=np.float64)
        cdf = np.cumsum(1.0 / (ranks + offset) ** exponent)
        self.cdf = cdf / cdf[-1]

    def __len__(self) -> int:
        return len(self.items)

    def draw(self, rng: np.random.Generator, k: int) -> np.ndarray:
        idx = np.searchsorted(self.cdf, rng.random(k), side="right")
        return self.items[np.minimum(idx, len(self.items) - 1)]

    def draw1(self, rr: random.Random) -> str:
        idx = int(np.searchsorted(self.cdf, rr.random(), side="right"))
        return str(self.items[min(idx, len(self.items) - 1)])


def _stable_hash(text: str) -> int:
    return zlib.crc32(text.encode("utf-8"))


def _ranked(scores: dict[str, float]) -> list[str]:
    """Items by descending score; ties broken by a fixed pseudo-random hash (not alphabetically)."""
    return sorted(scores, key=lambda w: (-scores[w], _stable_hash(w), w))


def default_data_dir() -> Path:
    env = os.environ.get("BIOSEM_DATA_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / "shared" / "data"


def _norm_mention(text: str) -> str | None:
    text = " ".join(text.split())
    if not (3 <= len(text) <= 60) or not CLEAN_MENTION_RE.match(text):
        return None
    words = text.split(" ")
    if len(words) == 1 and text.isupper():
        return None  # acronyms are not names
    if text[0].isupper() and text[1:] == text[1:].lower():
        text = text[0].lower() + text[1:]
    return text


@dataclass
class Vocabulary:
    pools: dict[str, Pool]
    native_synonyms: dict[str, list[str]]  # lower-case phrase -> real synonyms (WordNet, HPO)
    word_synonyms: dict[str, list[str]]  # lower-case word -> synonyms
    adj_to_noun: dict[str, str]  # "renal" -> "kidney"
    noun_to_adj: dict[str, str]
    word_class: dict[str, str]  # lower-case single word -> pool name (for sibling substitutions)
    lower_words: frozenset[str]
    sources: dict[str, int] = field(default_factory=dict)


def _read_pubtator(paths: Sequence[Path], mention_types: dict[str, str]) -> tuple[
        Counter[str], dict[str, Counter[str]]]:
    tokens: Counter[str] = Counter()
    mentions: dict[str, Counter[str]] = defaultdict(Counter)
    for path in paths:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                head = line[:24]
                if "|t|" in head or "|a|" in head:
                    tokens.update(t.lower() for t in TOKEN_RE.findall(line.split("|", 2)[2]))
                    continue
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 5 and parts[4] in mention_types:
                    norm = _norm_mention(parts[3])
                    if norm:
                        mentions[mention_types[parts[4]]][norm] += 1
    return tokens, mentions


@dataclass
class _WordNet:
    lexfile: dict[int, int]
    words: dict[int, list[str]]
    hyponyms: dict[int, list[int]]
    noun_index: dict[str, tuple[list[int], int]]  # lemma -> (synset offsets, tagsense count)
    adj_index: dict[str, int]
    verb_index: dict[str, int]
    pertainyms: list[tuple[str, int]]  # (adjective, noun synset offset)


def _read_wordnet(wn: Path) -> _WordNet:
    lexfile: dict[int, int] = {}
    words: dict[int, list[str]] = {}
    hyponyms: dict[int, list[int]] = defaultdict(list)
    with open(wn / "data.noun", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("  "):
                continue
            f = line.split(" | ", 1)[0].split()
            off, lex, n = int(f[0]), int(f[1]), int(f[3], 16)
            lexfile[off] = lex
            words[off] = [w.replace("_", " ") for w in f[4:4 + 2 * n:2]]
            i = 4 + 2 * n
            for j in range(int(f[i])):
                sym, tgt, pos = f[i + 1 + 4 * j], f[i + 2 + 4 * j], f[i + 3 + 4 * j]
                if pos == "n" and sym in ("~", "~i"):
                    hyponyms[off].append(int(tgt))

    def index(name: str) -> dict[str, tuple[list[int], int]]:
        out: dict[str, tuple[list[int], int]] = {}
        with open(wn / name, encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("  "):
                    continue
                f = line.split()
                p_cnt = int(f[3])
                tagsense = int(f[5 + p_cnt])
                out[f[0].replace("_", " ")] = ([int(x) for x in f[6 + p_cnt:]], tagsense)
        return out

    noun_index = index("index.noun")
    adj_index = {k: v[1] for k, v in index("index.adj").items()}
    verb_index = {k: v[1] for k, v in index("index.verb").items()}
    pertainyms: list[tuple[str, int]] = []
    with open(wn / "data.adj", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith("  "):
                continue
            f = line.split(" | ", 1)[0].split()
            if f[1] != "01":
                continue
            n = int(f[3], 16)
            adjs = [re.sub(r"\(.*\)$", "", w) for w in f[4:4 + 2 * n:2]]
            i = 4 + 2 * n
            for j in range(int(f[i])):
                sym, tgt, pos = f[i + 1 + 4 * j], f[i + 2 + 4 * j], f[i + 3 + 4 * j]
                if sym == "\\" and pos == "n":
                    src = int(f[i + 4 + 4 * j][:2], 16)
                    for k, a in enumerate(adjs, start=1):
                        if src in (0, k):
                            pertainyms.append((a, int(tgt)))
    return _WordNet(lexfile, words, hyponyms, noun_index, adj_index, verb_index, pertainyms)


def _descendants(wn: _WordNet, roots: Iterable[int]) -> list[int]:
    seen: dict[int, None] = {}
    stack = list(roots)
    while stack:
        off = stack.pop()
        if off in seen:
            continue
        seen[off] = None
        stack.extend(wn.hyponyms.get(off, ()))
    return list(seen)


def _sense(wn: _WordNet, lemma: str, n: int = 1) -> int:
    return wn.noun_index[lemma][0][n - 1]


def _read_hpo(path: Path) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    name: str | None = None
    syns: list[str] = []
    obsolete = False
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            if line.startswith(("[Term]", "[Typedef]")):
                if name and not obsolete:
                    out.append((name, syns))
                name, syns, obsolete = None, [], False
            elif line.startswith("name: "):
                name = line[6:].strip()
            elif line.startswith("synonym: ") and " EXACT" in line:
                m = re.match(r'synonym: "(.*)" EXACT', line)
                if m:
                    syns.append(m.group(1))
            elif line.startswith("is_obsolete: true"):
                obsolete = True
    if name and not obsolete:
        out.append((name, syns))
    return out


@functools.lru_cache(maxsize=4)
def load_vocabulary(data_dir: str) -> Vocabulary:
    """Read the real-word resources of the mirror into weighted pools (cached per process)."""
    root = Path(data_dir)
    bc5 = sorted((root / "bc5cdr").glob("*.PubTator.txt"))
    ncbi = sorted((root / "ncbi-disease").glob("NCBI*_corpus.txt"))
    wn_dir = root / "nltk_data" / "corpora" / "wordnet"
    if not bc5 or not (wn_dir / "data.noun").exists():
        raise FileNotFoundError(
            f"{root}: expected bc5cdr/*.PubTator.txt and nltk_data/corpora/wordnet/data.noun "
            "(set --data-dir or BIOSEM_DATA_DIR to the source mirror)")
    tokens, mentions = _read_pubtator(bc5, {"Chemical": "chemical", "Disease": "disease"})
    n_tokens, n_mentions = _read_pubtator(
        ncbi, {"SpecificDisease": "disease", "DiseaseClass": "disease", "CompositeMention": "disease"})
    tokens.update(n_tokens)
    mentions["disease"].update(n_mentions["disease"])
    stop_path = root / "nltk_data" / "corpora" / "stopwords" / "english"
    stop = set(stop_path.read_text(encoding="utf-8").split()) if stop_path.exists() else set()
    wn = _read_wordnet(wn_dir)
    hpo_path = next(iter(sorted((root / "obo").glob("hp.obo*.gz"))), None)
    hpo = _read_hpo(hpo_path) if hpo_path else []

    def ok_lemma(w: str) -> bool:
        return 3 <= len(w) <= 40 and all(c.isalpha() or c in " -'" for c in w) and w.count(" ") < 4

    def score(w: str, corpus: bool = False) -> float:
        """WordNet sense-tagged frequency (plus corpus frequency where the corpus is on topic)."""
        tag = wn.noun_index.get(w, ((), 0))[1]
        return 10.0 * tag + (3.0 * tokens.get(w.lower(), 0) if corpus else 0.0)

    def lemmas(offsets: Iterable[int], *, lower_only: bool = False, corpus: bool = False,
               primary: bool = True) -> dict[str, float]:
        """Lemmas of the synsets; with ``primary``, only where the synset is the lemma's first sense
        (so "hand" is not an organism and "line" not a device)."""
        out: dict[str, float] = {}
        for off in offsets:
            for w in wn.words.get(off, ()):
                if not ok_lemma(w) or (lower_only and w != w.lower()):
                    continue
                if primary and wn.noun_index.get(w.lower(), ([off], 0))[0][:1] != [off]:
                    continue
                out[w] = score(w, corpus)
        return out

    by_lex: dict[int, list[int]] = defaultdict(list)
    for off, lex in wn.lexfile.items():
        by_lex[lex].append(off)

    # Body: noun.body lemmas + the anatomy core list first.
    body = lemmas(_descendants(wn, [_sense(wn, "body part"), _sense(wn, "anatomical structure"),
                                    _sense(wn, "tissue"), _sense(wn, "organ")]),
                  lower_only=True, corpus=True)
    anatomy = list(ANATOMY_CORE) + [w for w in _ranked(body) if w not in ANATOMY_CORE]
    # Pertainym adjectives of body parts ("renal" -> "kidney").
    adj_to_noun: dict[str, str] = {}
    for adj, off in wn.pertainyms:
        if wn.lexfile.get(off) == 8 and adj == adj.lower() and ok_lemma(adj):
            noun = wn.words[off][0]
            if noun == noun.lower() and adj not in adj_to_noun:
                adj_to_noun[adj] = noun
    anat_adj = _ranked({a: 3.0 * tokens.get(a, 0) + wn.adj_index.get(a, 0) for a in adj_to_noun})
    noun_to_adj: dict[str, str] = {}
    for a in anat_adj:
        noun_to_adj.setdefault(adj_to_noun[a], a)

    # Diseases: WordNet disease/symptom/injury subtrees + corpus mentions + HPO names.
    dis_roots = [_sense(wn, "disease"), _sense(wn, "symptom"), _sense(wn, "injury"),
                 _sense(wn, "pathology", 2), _sense(wn, "abnormality")]
    wn_dis = lemmas(_descendants(wn, dis_roots))
    dis_scores = {m: 5.0 * c for m, c in mentions["disease"].items()}
    for w, s in wn_dis.items():
        dis_scores[w] = max(dis_scores.get(w, 0.0), s)
    diseases = _ranked(dis_scores)
    # Organisms.
    org_offsets = by_lex[5] + by_lex[20]
    genera: dict[str, float] = {}
    epithets: dict[str, float] = {}
    families: dict[str, float] = {}
    common_orgs: dict[str, float] = {}
    for off in org_offsets:
        for w in wn.words[off]:
            if not ok_lemma(w.replace("genus ", "").replace("family ", "")):
                continue
            if w.startswith("genus ") and w[6:7].isupper() and " " not in w[6:]:
                genera[w[6:]] = score(w)
            elif w.startswith("family ") and w[7:8].isupper() and " " not in w[7:]:
                families[w[7:]] = score(w)
            elif w[:1].isupper() and w.count(" ") == 1 and w.split(" ")[1].islower():
                g, e = w.split(" ")
                genera.setdefault(g, score(w))
                epithets[e] = epithets.get(e, 0.0) + 1.0
            elif w == w.lower() and ok_lemma(w) and wn.noun_index.get(w, ([0], 0))[0][0] == off:
                common_orgs[w] = score(w)
    microbes = lemmas(_descendants(wn, [_sense(wn, "microorganism"), _sense(wn, "bacteria"),
                                        _sense(wn, "virus")]), lower_only=True)
    # Substances: chemical mentions + noun.substance + drug subtree.
    sub_scores = {m: 5.0 * c for m, c in mentions["chemical"].items()}
    for w, s in lemmas(by_lex[27] + _descendants(wn, [_sense(wn, "drug"),
                                                      _sense(wn, "medicine", 2)]),
                       lower_only=True).items():
        sub_scores[w] = max(sub_scores.get(w, 0.0), s)
    substances = _ranked(sub_scores)
    # Procedures: medical procedure subtree.
    proc_wn = lemmas(_descendants(wn, [_sense(wn, "medical procedure"),
                                       _sense(wn, "diagnostic procedure"),
                                       _sense(wn, "therapy")]), lower_only=True)
    # Artifacts: devices and instruments, then all artifacts.
    dev = lemmas(_descendants(wn, [_sense(wn, "device"), _sense(wn, "instrument"),
                                   _sense(wn, "medical instrument")]), lower_only=True)
    artifacts = _ranked(dev) + [w for w in _ranked(lemmas(by_lex[6], lower_only=True))
                                if w not in dev]
    persons = list(PERSONS_CORE) + _ranked(
        lemmas(_descendants(wn, [_sense(wn, "health professional")]), lower_only=True)) + _ranked(
        lemmas(by_lex[18], lower_only=True))
    locations = _ranked({w: v for w, v in lemmas(by_lex[15]).items() if w[:1].isupper()})
    attributes = _ranked(lemmas(by_lex[7] + by_lex[23], lower_only=True))
    adjectives = _ranked({a: float(c) for a, c in wn.adj_index.items()
                          if ok_lemma(a) and " " not in a and a == a.lower()})
    verbs = _ranked({v: float(c) for v, c in wn.verb_index.items()
                     if ok_lemma(v) and " " not in v and v == v.lower()})
    general = [w for w, _ in sorted(tokens.items(), key=lambda kv: (-kv[1], kv[0]))
               if len(w) >= 3 and w not in stop and w.isalpha()]
    hpo_names = [n for n, _ in hpo if 3 <= len(n) <= 120]
    hpo_rank = sorted(hpo_names, key=lambda n: (_stable_hash(n), n))

    # Single-word pools, flatter (fewer collisions) for the one-word names (~8 % in SNOMED CT).
    english = {w for w, (_, c) in wn.noun_index.items() if c > 0} | set(wn.verb_index) | set(
        wn.adj_index)
    chem_words = [w for w, c in sorted(tokens.items(), key=lambda kv: (-kv[1], kv[0]))
                  if len(w) >= 6 and w.isalpha() and w not in stop and w not in english
                  and CHEMICAL_SUFFIX_RE.search(w)]
    hpo_tokens = Counter(t.lower() for n, _ in hpo for t in TOKEN_RE.findall(n))
    chem_words += [w for w, _ in sorted(hpo_tokens.items(), key=lambda kv: (-kv[1], kv[0]))
                   if len(w) >= 6 and w.isalpha() and w not in english and w not in tokens
                   and CHEMICAL_SUFFIX_RE.search(w)]
    sub1 = [w for w in substances if " " not in w] + chem_words + [
        w for w in _ranked(lemmas(by_lex[27], lower_only=True, primary=False)) if " " not in w]
    dis1 = [w for w in diseases if " " not in w and w.isalpha()]
    org1 = [w for w in _ranked(common_orgs) if " " not in w] + [w for w in _ranked(microbes)
                                                                 if " " not in w]
    art1 = [w for w in artifacts if " " not in w]

    # Derivatives by chemical nomenclature ("hydroxy" + "progesterone"): real morphemes on real
    # substance names, as in SNOMED's many one-word substance names.
    bases = [w for w in sub1[:1500] if w.isalpha() and len(w) >= 5]
    chemx = [p + b for b in bases for p in CHEMICAL_PREFIXES if not b.startswith(p)]
    chemx = sorted(chemx, key=lambda w: (_stable_hash(w), w))

    pools: dict[str, Pool] = {
        "SUB1": Pool(sub1, 0.5, 10.0),
        "CHEMX": Pool(chemx, 0.3, 10.0),
        "DIS1": Pool(dis1, 0.5, 10.0),
        "ORG1": Pool(org1, 0.5, 10.0),
        "ART1": Pool(art1, 0.5, 10.0),
        "PROC1": Pool([w for w in _ranked(proc_wn) if " " not in w], 0.5, 10.0),
        "QUAL1": Pool(adjectives, 0.5, 10.0),
        "A": Pool(anatomy, 0.85, 8.0),
        "AA": Pool(anat_adj, 1.0, 3.0),
        "LAT": Pool(LATERALITY, 0.6, 0.0),
        "POS": Pool(POSITION, 1.0, 1.0),
        "MOD": Pool(MODIFIERS, 1.0, 2.0),
        "DH": Pool(DISORDER_HEADS, 1.0, 2.0),
        "DIS": Pool(diseases, 0.9, 5.0),
        "FH": Pool(FINDING_HEADS, 1.0, 1.5),
        "CHG": Pool(CHANGE, 1.0, 1.0),
        "PROP": Pool(PROPERTIES, 1.0, 1.0),
        "PH": Pool(PROC_HEADS, 1.0, 2.0),
        "PQ": Pool(PROC_QUALIFIERS, 1.0, 1.0),
        "PROCW": Pool(_ranked(proc_wn), 1.0, 3.0),
        "IMG": Pool(IMAGING, 1.0, 1.0),
        "APPR": Pool(APPROACHES, 1.0, 1.0),
        "MEAS": Pool(MEASURES, 1.0, 1.0),
        "FLUID": Pool(FLUIDS, 1.0, 1.0),
        "SALT": Pool(SALTS, 1.0, 1.0),
        "DOSE": Pool(DOSE_FORMS, 1.0, 1.0),
        "ROUTE": Pool(ROUTES, 1.0, 1.0),
        "UNIT": Pool(UNITS, 1.0, 0.5),
        "UABB": Pool(UNIT_ABBR, 1.0, 0.5),
        "NUM": Pool(NUMBERS, 0.9, 1.0),
        "MORPH": Pool(MORPHOLOGIES, 1.0, 2.0),
        "CELL": Pool(CELL_WORDS, 0.8, 2.0),
        "CPART": Pool(CELL_PARTS, 0.8, 1.0),
        "SUB": Pool(substances, 1.0, 10.0),
        "GEN": Pool(_ranked(genera), 0.8, 10.0),
        "EPI": Pool(_ranked(epithets), 0.8, 10.0),
        "FAM": Pool(_ranked(families), 0.8, 10.0),
        "ORGC": Pool(_ranked(common_orgs), 1.0, 10.0),
        "MICRO": Pool(_ranked(microbes), 1.0, 5.0),
        "ART": Pool(artifacts, 1.0, 10.0),
        "PERS": Pool(persons, 1.0, 5.0),
        "REL": Pool(RELATIVES, 1.0, 1.0),
        "GEO": Pool(locations, 0.8, 10.0),
        "ENV": Pool(ENV_WORDS, 1.0, 1.0),
        "ENVQ": Pool(ENV_QUALS, 1.0, 1.0),
        "SCALE": Pool(SCALE_WORDS, 1.0, 1.0),
        "EVT": Pool(EVENT_VERBS, 1.0, 1.0),
        "THER": Pool(THERAPY_WORDS, 1.0, 1.0),
        "ROMAN": Pool(ROMAN, 0.8, 2.0),
        "SITP": Pool(SITUATION_PREFIXES, 1.0, 0.5),
        "SITS": Pool(SITUATION_SUFFIXES, 1.0, 1.0),
        "QUAL": Pool(adjectives, 1.0, 10.0),
        "QN": Pool(attributes, 1.0, 10.0),
        "VERB": Pool(verbs, 1.0, 10.0),
        "W": Pool(general, 1.0, 10.0),
        "HPO": Pool(hpo_rank or diseases, 0.0, 1.0),
    }
    for key, items in EXTRA_POOLS.items():
        pools[key] = Pool(items, 1.0, 1.5)

    native: dict[str, list[str]] = defaultdict(list)
    for name, syns in hpo:
        for syn in syns:
            if syn.lower() != name.lower() and ok_lemma(syn.replace(",", "").replace("(", "")
                                                         .replace(")", "")[:40]):
                native[name.lower()].append(syn)
    for off in _descendants(wn, dis_roots) + _descendants(wn, [_sense(wn, "medical procedure")]):
        ws = [w for w in wn.words[off] if ok_lemma(w)]
        for w in ws:
            for syn in ws:
                if syn.lower() != w.lower():
                    native[w.lower()].append(syn)
    word_syn: dict[str, list[str]] = defaultdict(list)
    single = set(anatomy) | set(DISORDER_HEADS) | set(PROC_HEADS) | set(FINDING_HEADS) | set(
        MODIFIERS) | set(MORPHOLOGIES)
    for w in sorted(single):
        senses = wn.noun_index.get(w)
        if senses and senses[0]:
            for syn in wn.words[senses[0][0]]:
                if syn != w and syn == syn.lower() and ok_lemma(syn) and tokens.get(syn, 0) >= 2:
                    word_syn[w].append(syn)
    for a, b in CURATED_SYNONYMS:
        word_syn[a].append(b)
        word_syn[b].append(a)
    for adj, noun in adj_to_noun.items():
        word_syn[adj].append(noun)

    word_class: dict[str, str] = {}
    for cls in ("A", "AA", "POS", "MOD", "DH", "FH", "PH", "MORPH", "SUB", "ART", "PERS", "FLUID",
                "PROP", "MEAS", "CHG", "DOSE", "ORGC"):
        for w in pools[cls].items[:4000]:
            if " " not in w:
                word_class.setdefault(w.lower(), cls)
    lower_words = frozenset(
        w.lower() for p in pools.values() for item in p.items[:20000] for w in str(item).split(" ")
        if w == w.lower()) | FUNCTION_WORDS
    sources = {"bc5cdr_ncbi_tokens": sum(tokens.values()), "disease_names": len(diseases),
               "substances": len(substances), "anatomy": len(anatomy), "hpo_terms": len(hpo),
               "genera": len(genera), "artifacts": len(artifacts)}
    return Vocabulary(pools, dict(native), dict(word_syn), adj_to_noun, noun_to_adj, word_class,
                      lower_words, sources)


# ---------------------------------------------------------------------------------------------------
# Name templates per semantic tag: (template, weight). Slots are pool names in braces.
# ---------------------------------------------------------------------------------------------------
TEMPLATES: dict[str, list[tuple[str, float]]] = {
    "disorder": [
        ("{DH} of {A}", 7), ("{MOD} {DH} of {A}", 7), ("{DH} of {LAT} {A}", 5),
        ("{MOD} {DH} of {LAT} {A}", 5), ("{AA} {DH}", 3), ("{MOD} {AA} {DH}", 3), ("{DIS}", 4),
        ("{MOD} {DIS}", 3), ("{DIS1}", 4), ("{DIS} of {A}", 2.5), ("{DIS} due to {DIS}", 2.5),
        ("{DIS} caused by {GEN} {EPI}", 1.5), ("{DIS} co-occurrent and due to {DIS}", 1.2),
        ("{DH} of {POS} {A}", 3), ("{MOD} {DH} of {POS} {A} with {DH}", 2),
        ("{DH} of {APART} of {LAT} {A}", 3), ("{MOD} {DH} of {APART} of {A}", 2.5), ("{HPO}", 5),
        ("{MOD} {MOD} {DH} of {APART} of {LAT} {A}", 2.5), ("Poisoning by {SUB}", 1),
        ("Allergy to {SUB}", 1.2), ("Adverse reaction to {SUB}", 1), ("{SUB} overdose", 0.3),
        ("Infection caused by {GEN} {EPI}", 1.5), ("{MICRO} infection of {A}", 1),
        ("{DIS} in {MOD} {DIS}", 0.8), ("{DIS} of {AA} {A}", 1.2),
        ("{MOD} {DH} of {AA} {A}", 1.5), ("{DH} of {A} and {A}", 1.2),
        ("{DIS} in pregnancy", 0.5), ("{DIS} of newborn", 0.4), ("{DIS} in remission", 0.3),
        ("{MOD} {DIS} with {DIS}", 1.5), ("{DH} of {A} with {MOD} {DH}", 1.5),
        ("{MOD} {DH} of {LAT} {A} without {DH}", 1.2), ("{MOD} {DH} of {A} due to {DIS}", 1.5),
        ("{DH} of {A} co-occurrent with {DIS}", 0.8), ("{MOD} {MOD} {DIS}", 1),
        ("{AA} {DH} due to {DIS}", 1), ("{DIS} associated with {DIS}", 0.8),
        ("{MOD} {HPO}", 1.5), ("{HPO} due to {DIS}", 0.8),
    ],
    "finding": [
        ("{FH} of {A}", 5), ("{FH} in {LAT} {A}", 4), ("{CHG} {A} {PROP}", 3),
        ("{CHG} {PROP} of {A}", 2.5), ("{HPO}", 9), ("On examination - {FH} of {A}", 1.5),
        ("{A} finding", 1.2), ("Finding of {A}", 1.5), ("{FLUID} {SUB} level {CHG}", 2),
        ("{FLUID} {SUB} {CHG}", 1), ("Able to {VERB}", 0.8), ("Unable to {VERB}", 0.8),
        ("{CHG} {FLUID} {SUB} level", 1.5), ("{FH} of {POS} {A}", 1.5), ("{MOD} {FH} of {A}", 1.5),
        ("{DIS} {SITS}", 0.8), ("{A} {FH}", 1.5), ("{FH}", 0.3), ("{FH} of {A} due to {DIS}", 1.5),
        ("Finding of {PROP} of {A}", 1), ("{CHG} {QN}", 0.7), ("{QUAL} {FH}", 0.7),
        ("{GEN} {EPI} present", 0.5), ("{SUB} in {FLUID}", 1),
        ("On examination - {CHG} {PROP} of {LAT} {A}", 1.5), ("{FH} of {APART} of {LAT} {A}", 2),
        ("{CHG} {PROP} of {POS} {A}", 1.2), ("{MOD} {HPO}", 1.5), ("{FLUID} {SUB} above reference range", 1),
        ("{FLUID} {SUB} below reference range", 0.8), ("{FH} of {A} on {VERB}ing", 0.6),
        ("Finding related to ability to {VERB}", 0.6), ("{HPO} of {LAT} {A}", 1),
    ],
    "procedure": [
        ("{PH} of {A}", 7), ("{PH} of {LAT} {A}", 4), ("{PQ} {PH} of {A}", 5),
        ("{PH} of {DH} of {A}", 4), ("{PQ} {PH} of {DH} of {LAT} {A}", 3),
        ("{PH} of {A} using {ART}", 2), ("{PH} of {A} with {PH} of {A}", 2.5),
        ("{IMG} of {A}", 3), ("{IMG} of {LAT} {A}", 1.5), ("{PROCW}", 1), ("{PROC1}", 1.5), ("{PQ} {PROCW}", 1),
        ("{PROCW} of {A}", 1.5), ("Measurement of {SUB} in {FLUID}", 2),
        ("{FLUID} {SUB} measurement", 2), ("{SUB} therapy", 0.8), ("Administration of {SUB}", 1),
        ("Injection of {SUB} into {A}", 1.2), ("Education about {DIS}", 0.8),
        ("Referral to {PERS}", 0.8), ("Assessment of {PROP}", 0.5), ("{PH} of {ART}", 1),
        ("{PH} of {A} by {APPR} approach", 1.5), ("{PH} of {POS} {A}", 2),
        ("{PQ} {PH} of {AA} {A}", 2), ("{IMG} of {A} with contrast", 1),
        ("{PH} of {A} for {DIS}", 1.2), ("Screening for {DIS}", 0.8), ("{MEAS} of {A}", 1),
        ("Removal of {ART} from {A}", 1), ("Insertion of {ART} into {A}", 1),
        ("{PH} of {MOD} {DH} of {A}", 2), ("{PQ} {PH} of {APART} of {LAT} {A}", 2.5),
        ("{PH} of {APART} of {A} using {ART}", 1.2), ("{PQ} {PH} of {A} and {PH} of {A}", 1.2),
        ("{PQ} {PH} of {POS} {A} by {APPR} approach", 1.2),
        ("{IMG} guided {PH} of {A}", 1.2), ("Administration of {SUB} into {A}", 0.8),
    ],
    "body structure": [
        ("Structure of {A}", 8), ("{A} structure", 4), ("Entire {A}", 6),
        ("Structure of {LAT} {A}", 4), ("Entire {LAT} {A}", 3), ("Structure of {POS} {A}", 3),
        ("{POS} {A} structure", 1), ("{AA} {A}", 1.5),
        ("Structure of {AA} {CELLT}", 4), ("Entire {AA} {CELLT}", 2.5), ("{CELLT} of {A}", 2),
        ("Bone structure of {A}", 1.5), ("Skin structure of {A}", 1.2), ("{A}", 0.5),
        ("Structure of {APART} of {A}", 3), ("Entire {APART} of {LAT} {A}", 2),
        ("{POS} {APART} of {A}", 1.5), ("Structure of {POS} {APART} of {LAT} {A}", 2),
        ("Entire {POS} {A}", 1.5), ("{A} and {A}", 0.6), ("{AA} {CELLT} structure", 1),
        ("Entire {AA} {CELLT} of {LAT} {A}", 1.5), ("Structure of {CELLT} of {POS} {A}", 1.5),
        ("Skin structure of {POS} {APART} of {A}", 1), ("Entire {APART} of {POS} {A}", 1.5),
    ],
    "morphologic abnormality": [
        ("{MORPH}", 4), ("{MOD} {MORPH}", 3), ("{MORPH}, {QUAL} type", 1.5),
        ("{CELL} cell {MORPH}", 2), ("{QUAL} {MORPH}", 1.5), ("{MORPH} with {MORPH}", 0.8),
        ("{AA} {MORPH}", 1),
    ],
    "organism": [
        ("Genus {GEN}", 3), ("{GEN} {EPI}", 8), ("Family {FAM}", 1.5), ("{ORG1}", 3.5),
        ("{GEN} {EPI} subspecies {EPI}", 1), ("{ORGC}", 1), ("{QUAL} {ORGC}", 0.8),
        ("{GEN} {EPI} serovar {GEN}", 0.8), ("{MICRO}", 0.6), ("{DIS} virus", 0.5),
        ("{GEN} {EPI} strain {NUM}", 0.5), ("{GEN} {EPI} var. {EPI}", 0.5),
        ("{ORGC} {MICRO}", 0.5), ("{GEN} {EPI} serotype {NUM}", 0.5),
        ("{QUAL} {EPI} {MICRO}", 0.4), ("{GEN} {EPI} group {ROMAN}", 0.4),
        ("{GEN} {EPI}, {QUAL} strain", 0.4),
    ],
    "substance": [
        ("{SUB}", 5), ("{SUB1}", 12), ("{CHEMX}", 7), ("{SUB} {SALT}", 3.5), ("{SUB} antibody", 1), ("Anti-{SUB} antibody", 0.8),
        ("{ORGC} allergen", 0.7), ("{SUB} receptor", 0.6), ("{SUB} {SUB}", 1),
        ("{QUAL} {SUB}", 1), ("{SUB} metabolite", 0.4), ("{SUB} and {SUB}", 0.5),
        ("{CELL} cell antigen", 0.3), ("{SUB} {QN}", 0.5),
        ("Substance with {SUB} receptor antagonist mechanism of action", 0.8),
        ("Substance with {SUB} mechanism of action", 0.5), ("{ORGC} {SUB} allergen", 0.4),
        ("{SUB} {SALT} {SALT}", 0.5), ("{SUB} {ROMAN} antibody", 0.4),
    ],
    "product": [
        ("{SUB} {NUM}{UABB} {DOSE}", 3), ("{SUB} {NUM}{UABB}/{NUM}mL {LIQ}", 1),
        ("{SUB}-containing product", 1.5), ("{SUB} product", 1.5), ("{SUB} {SALT} {DOSE}", 1),
    ],
    "medicinal product": [
        ("Product containing {SUB}", 5), ("Product containing {SUB} and {SUB}", 1.5),
        ("Product containing only {SUB}", 3), ("Product containing {SUB} {SALT}", 1),
        ("Product containing only {SUB} and {SUB}", 1),
    ],
    "medicinal product form": [
        ("Product containing {SUB} in {ROUTE} dose form", 3),
        ("Product containing only {SUB} in {ROUTE} dose form", 2),
        ("Product containing {SUB} and {SUB} in {ROUTE} dose form", 0.8),
    ],
    "clinical drug": [
        ("Product containing precisely {SUB} {NUM} {UNIT}/1 each conventional release {DOSE}", 4),
        (("Product containing precisely {SUB} {SALT} {NUM} {UNIT}/1 each conventional release "
         "{DOSE}"), 1.5),
        ("{SUB} {NUM} {UABB} {DOSE}", 2), ("{SUB} {NUM} {UABB} and {SUB} {NUM} {UABB} {DOSE}", 1),
        (("Product containing precisely {SUB} {NUM} {UNIT}/1 milliliter conventional release "
         "{LIQ}"), 1),
    ],
    "qualifier value": [
        ("{QUAL1}", 8), ("{QN}", 2), ("{QUAL} {QN}", 3), ("{PH} - action", 1.5),
        ("{QUAL} to {QUAL}", 0.5), ("{W}", 1.5), ("{NUM} {UNIT}", 0.3), ("{POS} {APART}", 1),
        ("{A} {QN}", 0.7), ("{CHG} {PROP}", 0.8), ("Stage {ROMAN}", 0.5),
    ],
    "observable entity": [
        ("{MEAS} of {A}", 3), ("{FLUID} {SUB} level", 3), ("{A} {PROP}", 2),
        ("{PROP} of {A}", 2), ("{QUAL} {MEAS}", 0.8), ("Ability to {VERB}", 1.2),
        ("{SUB} {MEAS} in {FLUID}", 1.5), ("{PROP} of {LAT} {A}", 1.2),
        ("{A} {MEAS}", 1), ("{DIS} {SCALE}", 0.5), ("{CHG} {PROP}", 0.4),
        ("{MEAS} of {APART} of {LAT} {A}", 1), ("Mass concentration of {SUB} in {FLUID}", 1),
        ("Substance concentration of {SUB} in {FLUID} at {NUM} hours", 0.5),
    ],
    "situation": [
        ("{SITP} {DIS}", 3), ("{SITP} {DH} of {A}", 1.5), ("{DIS} {SITS}", 1.5),
        ("{PH} of {A} {SITS}", 1), ("{SUB} therapy {SITS}", 0.7), ("History of {PH} of {A}", 1),
        ("{SITP} {PERS}", 0.5), ("No {FH} of {A}", 0.5), ("{IMG} {SITS}", 0.5),
        ("{SITP} {HPO}", 0.8),
    ],
    "event": [
        ("{EVT} {ART}", 4), ("Accidental poisoning by {SUB}", 2), ("Bitten by {ORGC}", 1),
        ("Exposure to {SUB}", 1.5), ("Intentional overdose of {SUB}", 0.8),
        ("{EVT} {QUAL} {ART}", 1), ("{ART} accident", 0.6), ("Victim of {W}", 0.3),
    ],
    "physical object": [
        ("{ART1}", 5), ("{QUAL} {ART}", 3), ("{ART} {ART}", 1.5), ("{A} {ART}", 2),
        ("{SUB} {ART}", 1.5), ("{A} prosthesis", 1), ("{PH} {ART}", 0.8),
    ],
    "regime/therapy": [
        ("{SUB} {THER}", 2), ("{DIS} {THER}", 1.5), ("{W} {THER}", 1), ("Advice about {DIS}", 1),
        ("{ART} {THER}", 0.8), ("{FH} {THER}", 1), ("{THER} for {DIS}", 0.8),
    ],
    "occupation": [("{PERS}", 4), ("{QUAL} {PERS}", 2), ("{W} {PERS}", 1), ("{A} {PERS}", 0.3)],
    "person": [("{PERS}", 2), ("{REL} of {PERS}", 1), ("{PERS} with {DIS}", 0.5)],
    "environment": [("{ENVQ} {ENV}", 4), ("{W} {ENV}", 1), ("{PERS} {ENV}", 1), ("{ENV}", 0.2)],
    "geographic location": [("{GEO}", 1)],
    "specimen": [
        ("{FLUID} specimen", 1), ("{A} biopsy specimen", 1), ("Specimen from {A}", 2),
        ("Specimen from {A} obtained by {PH}", 2), ("{SUB} sample", 0.6), ("{A} swab", 1),
        ("{FLUID} sample", 0.8),
    ],
    "assessment scale": [("{GEO} {DIS} {SCALE}", 1), ("{DIS} {SCALE}", 2), ("{W} {SCALE}", 1.5),
                         ("{PROP} {SCALE}", 0.7)],
    "staging scale": [("{DIS} staging system", 1), ("{GEO} {SCALE}", 1)],
    "tumor staging": [("{DIS} stage {ROMAN}", 1), ("{ROMAN} category", 0.5)],
    "record artifact": [("{W} record", 1), ("{DIS} report", 1), ("{PH} report", 1)],
    "cell": [("{CELL} cell", 3), ("{QUAL} {CELL} cell", 1), ("{AA} cell", 1)],
    "cell structure": [("{CPART}", 1), ("{CPART} of {CELL} cell", 1)],
    "social concept": [("{W} {QN}", 1), ("{QUAL} status", 1)],
    "ethnic group": [("{GEO}", 1), ("{GEO} people", 1)],
    "religion/philosophy": [("{GEO} church", 1), ("{W} religion", 1)],
    "navigational concept": [("{DH}s of {A} and/or {A}", 1), ("{PH}s on {A}", 1),
                             ("{DIS} and/or {DIS}", 0.5)],
    "physical force": [("{QUAL} force", 1), ("{W} radiation", 1)],
    "disposition": [("{SUB} receptor agonist", 1), ("{SUB} inhibitor", 1)],
    "dose form": [("{DOSE}", 2), ("{ROUTE} {DOSE}", 1)],
    "basic dose form": [("{DOSE}", 1)],
    "unit of presentation": [("{DOSE}", 1)],
    "attribute": [("Has {W}", 1), ("{W} {QN}", 1), ("Associated {W}", 0.5), ("{PROP} site", 0.5)],
    "core metadata concept": [("{W} module", 1), ("{QUAL} {W} status", 1)],
    "foundation metadata concept": [("{W} reference set", 1), ("{W} {W} simple reference set", 1),
                                    ("{W} {W} association reference set", 0.5)],
    "linkage concept": [("{W} {W} link", 1)],
}
EXTRA_POOLS: dict[str, list[str]] = {
    "APART": ["shaft", "head", "neck", "body", "base", "apex", "surface", "border", "margin",
              "region", "wall", "root", "tip", "lobe", "segment", "part", "cavity", "canal",
              "process", "floor", "roof", "fossa", "space", "lining", "capsule", "epiphysis",
              "cortex", "mucosa", "joint", "tubercle"],
    "LIQ": ["solution for injection", "oral solution", "oral suspension", "solution for infusion",
            "eye drops", "nasal spray", "oral drops", "cutaneous solution", "ear drops"],
    "CELLT": ["artery", "vein", "nerve", "muscle", "bone", "lymph node", "ligament", "tendon",
              "mucosa", "region", "cartilage", "fascia", "duct", "gland", "joint", "vessel",
              "lymphatic", "skin", "membrane", "space"],
}
# Optional clauses appended to a share of the names (SNOMED's long compositional names). The shares are
# calibrated so that the mean distance of random negatives approaches Table 2 (FSN-SYN 37.40).
ELABORATIONS: dict[str, tuple[float, list[tuple[str, float]]]] = {
    "disorder": (0.3, [(" with {DH}", 2), (" due to {DIS}", 2), (" co-occurrent with {DIS}", 1),
                       (" without complication", 0.5), (" with {MOD} {DH}", 1),
                       (" of {LAT} {A}", 1), (" in {PERS}", 0.3), (" due to {SUB}", 0.5),
                       (" with {DIS}", 1), (" caused by {GEN} {EPI}", 0.5)]),
    "finding": (0.22, [(" due to {DIS}", 2), (" on {LAT} side", 1), (" in {LAT} {A}", 1),
                      (" during {PROCW}", 0.5), (" with {FH} of {A}", 1), (" at rest", 0.3),
                      (" on exertion", 0.3)]),
    "procedure": (0.3, [(" using {ART}", 2), (" with {PH} of {A}", 2), (" by {APPR} approach", 1.5),
                        (" under {IMG} guidance", 1), (" for {DIS}", 1), (" with {PQ} {PH}", 1),
                        (" of {LAT} {A}", 1), (" with insertion of {ART}", 0.8)]),
    "body structure": (0.12, [(" of {LAT} {A}", 1), (" and {A}", 0.5), (" of {POS} {A}", 1)]),
    "organism": (0.08, [(" strain {NUM}", 1), (" serotype {ROMAN}", 1), (" subspecies {EPI}", 1)]),
    "substance": (0.1, [(" {SALT}", 1), (" {QN}", 0.5), (" {ROMAN}", 0.5)]),
    "observable entity": (0.1, [(" in {FLUID}", 1), (" of {LAT} {A}", 1),
                                (" at {NUM} minutes", 0.5)]),
    "situation": (0.15, [(" of {A}", 1), (" in {PERS}", 1), (" with {DH}", 1)]),
}
PREFIX_POOL = {"procedure": "PQ", "body structure": "POS", "observable entity": "CHG",
               "finding": "MOD", "disorder": "MOD", "morphologic abnormality": "MOD",
               "situation": "MOD", "event": "QUAL", "regime/therapy": "QUAL"}
INNER_HYPHEN_RE = re.compile(r"(?<=\w)-(?=\w)")
SINGLE_WORD_POOL = {"substance": "CHEMX", "disorder": "DIS1", "organism": "ORG1",
                    "physical object": "ART1", "qualifier value": "QUAL1", "procedure": "PROC1"}
CLINICAL_TAGS = frozenset({"disorder", "finding", "procedure", "body structure", "situation",
                           "morphologic abnormality", "observable entity", "event",
                           "regime/therapy"})
# Where a one-word sibling edit inserts a word for the other tags: (pool, append at the end?).
TAG_INSERTS: dict[str, tuple[str, bool]] = {
    "substance": ("SALT", True), "organism": ("EPI", True), "product": ("DOSE", True),
    "medicinal product": ("SALT", True), "medicinal product form": ("ROUTE", False),
    "clinical drug": ("NUM", True), "qualifier value": ("QUAL", False),
    "physical object": ("QUAL", False), "occupation": ("QUAL", False),
}
# Share of concepts named as a one-word edit of an earlier concept of the same tag. Calibrated so that
# the mean distance of the Levenshtein negatives approaches Schulz & Juric's Table 2 (FSN-SYN 7.97,
# SYN-SYN 8.00): real SNOMED CT is dense in near-identical sibling names.
SIBLING_FRACTION = {"disorder": 0.58, "finding": 0.48, "procedure": 0.58, "body structure": 0.6,
                    "clinical drug": 0.7, "product": 0.6, "medicinal product form": 0.48,
                    "organism": 0.2, "substance": 0.2, "observable entity": 0.48}
SIBLING_DEFAULT = 0.25
SLOT_RE = re.compile(r"\{([A-Z0-9]+)\}")


def _decap(word: str, lower_words: frozenset[str]) -> str:
    """Lower-case the first letter of a sentence-case word that is not a proper name/acronym."""
    if word[:1].isupper() and word[1:2].islower():
        first = word.split(" ", 1)[0]
        if first.lower() in lower_words:
            return word[0].lower() + word[1:]
    return word


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _fill(specs: Sequence[tuple[str, float]], k: int, rng: np.random.Generator,
          voc: Vocabulary) -> np.ndarray:
    """``k`` strings from weighted templates, slots drawn from the vocabulary pools."""
    weights = np.array([w for _, w in specs], dtype=np.float64)
    choice = rng.choice(len(specs), size=k, p=weights / weights.sum())
    out = np.empty(k, dtype=object)
    for t, (tmpl, _) in enumerate(specs):
        idx = np.flatnonzero(choice == t)
        if len(idx) == 0:
            continue
        parts = SLOT_RE.split(tmpl)
        acc = np.full(len(idx), parts[0], dtype=object)
        for j in range(1, len(parts), 2):
            slot = parts[j]
            vals = voc.pools[slot].draw(rng, len(idx))
            if (j > 1 or parts[0]) and slot in ("HPO", "DIS", "SUB", "QUAL", "W"):
                vals = np.array([_decap(v, voc.lower_words) for v in vals], dtype=object)
            acc = acc + vals + parts[j + 1]
        out[idx] = acc
    return out


def render_names(tag: str, k: int, rng: np.random.Generator, voc: Vocabulary) -> list[str]:
    """``k`` names of semantic tag ``tag`` (sentence case, without the tag)."""
    if k == 0:
        return []
    out = _fill(TEMPLATES[tag], k, rng, voc)
    share, specs = ELABORATIONS.get(tag, (0.0, []))
    if share:
        idx = np.flatnonzero(rng.random(k) < share)
        if len(idx):
            out[idx] = out[idx] + _fill(specs, len(idx), rng, voc)
    return [_cap(" ".join(str(n).split())) for n in out]


# ---------------------------------------------------------------------------------------------------
# Edits: siblings (one-word differences) and synonyms (realistic rewordings)
# ---------------------------------------------------------------------------------------------------
def _pluralize(w: str) -> str:
    if w.endswith("is"):
        return w[:-2] + "es"
    if w.endswith("um") and len(w) > 4:
        return w[:-2] + "a"
    if w.endswith("us") and len(w) > 4:
        return w[:-2] + "i"
    if w.endswith("y") and len(w) > 2 and w[-2] not in "aeiou":
        return w[:-1] + "ies"
    if w.endswith(("s", "x", "ch", "sh")):
        return w + "es"
    return w + "s"


def _singularize(w: str) -> str | None:
    if w.endswith("ies") and len(w) > 4:
        return w[:-3] + "y"
    if w.endswith(("ses", "xes", "ches")):
        return w[:-2]
    if w.endswith("s") and not w.endswith(("ss", "us", "is")) and len(w) > 3:
        return w[:-1]
    return None


def _initials(words: Sequence[str]) -> str:
    return "".join(w[0].upper() for w in words if w and w[0].isalpha())


class Editor:
    """String edits with a local ``random.Random`` (fast scalar draws, deterministic)."""

    SYN_KINDS = ("case", "plural", "spelling", "hyphen", "drop", "add", "reorder", "comma",
                 "synonym", "swap", "abbrev", "paren", "replace", "combo")

    def __init__(self, voc: Vocabulary, rr: random.Random, rng: np.random.Generator) -> None:
        self.v = voc
        self.rr = rr
        self.rng = rng
        self.contrast: dict[str, str] = {}
        for a, b in CONTRASTS:
            self.contrast.setdefault(a, b)
            self.contrast.setdefault(b, a)
        self.abbr = {p: a for p, a in ABBREVIATIONS}
        self.expand = {a.lower(): p for p, a in ABBREVIATIONS}
        self.spell_us = SPELLINGS
        self.lay_names: dict[str, list[str]] = {}
        self.droppable = (set(LATERALITY) | set(POSITION) | set(MODIFIERS) | set(PROC_QUALIFIERS)
                          | {"entire", "structure", "the", "finding", "disorder", "procedure",
                             "unspecified", "all", "part"})

    # ---- helpers --------------------------------------------------------------------------------
    def _choice(self, seq: Sequence[T]) -> T:
        return seq[int(self.rr.random() * len(seq))]

    def _finish(self, toks: list[str], original: str) -> str | None:
        out = " ".join(t for t in toks if t)
        out = _cap(out.strip(" ,"))
        if not out or out == original:
            return None
        return out

    def _lower_first(self, tok: str) -> str:
        return _decap(tok, self.v.lower_words)

    def set_lay_names(self, by_tag: dict[str, list[str]]) -> None:
        self.lay_names = by_tag

    # ---- sibling mutation -------------------------------------------------------------------------
    def mutate(self, name: str, tag: str = "disorder") -> str:
        toks = name.split(" ")
        clinical = tag in CLINICAL_TAGS
        for _ in range(6):
            r = self.rr.random()
            nums = [i for i, t in enumerate(toks) if t in NUMBERS]
            if nums and r < 0.6:
                i = self._choice(nums)
                new = list(toks)
                new[i] = self.v.pools["NUM"].draw1(self.rr)
            elif r < 0.42:
                cands = [i for i, t in enumerate(toks) if t.lower() in self.contrast]
                if not cands:
                    continue
                i = self._choice(cands)
                new = list(toks)
                rep = self.contrast[toks[i].lower()]
                new[i] = _cap(rep) if toks[i][:1].isupper() else rep
            elif r < 0.7:
                new = list(toks)
                ofs = [i for i, t in enumerate(toks) if t == "of" and i + 1 < len(toks)]
                if not clinical:
                    pool, at_end = TAG_INSERTS.get(tag, ("QUAL", False))
                    word = self.v.pools[pool].draw1(self.rr)
                    if at_end:
                        new.append(word)
                    else:
                        new[0] = self._lower_first(new[0])
                        new.insert(0, word)
                elif ofs and self.rr.random() < 0.75:
                    i = self._choice(ofs) + 1
                    if toks[i].lower() in self.contrast or toks[i].lower() in LATERALITY:
                        continue
                    pool = "LAT" if self.rr.random() < 0.6 else "POS"
                    new.insert(i, self.v.pools[pool].draw1(self.rr))
                else:
                    new[0] = self._lower_first(new[0])
                    new.insert(0, self.v.pools[PREFIX_POOL.get(tag, "MOD")].draw1(self.rr))
            else:
                cands = [i for i, t in enumerate(toks) if t.lower() in self.v.word_class
                         and t.lower() not in FUNCTION_WORDS]
                if not cands:
                    continue
                i = self._choice(cands)
                new = list(toks)
                rep = self.v.pools[self.v.word_class[toks[i].lower()]].draw1(self.rr)
                new[i] = _cap(rep) if i == 0 else rep
            out = self._finish(new, name)
            if out:
                return out
        return _cap(f"{name} {self.v.pools['ROMAN'].draw1(self.rr)}")

    # ---- synonym edits --------------------------------------------------------------------------
    def edit(self, name: str, kind: str, tag: str) -> str | None:
        out = getattr(self, "_e_" + kind)(name, tag)
        if out:
            out = " ".join(out.split())
        return out if out and out != name else None

    def _e_case(self, name: str, tag: str) -> str | None:
        r = self.rr.random()
        if r < 0.6:
            out = name[:1].lower() + name[1:]
        elif r < 0.8:
            out = name.lower()
        elif r < 0.95:
            out = " ".join(_cap(t) if t not in FUNCTION_WORDS else t for t in name.split(" "))
        else:
            out = name.upper()
        return out if out != name else None

    def _e_plural(self, name: str, tag: str) -> str | None:
        toks = name.split(" ")
        heads = [i for i, t in enumerate(toks) if t.isalpha() and t.islower() and len(t) > 3
                 and t not in FUNCTION_WORDS]
        if not heads:
            return None
        of = toks.index("of") if "of" in toks else len(toks)
        i = max([h for h in heads if h < of], default=self._choice(heads))
        sing = _singularize(toks[i])
        toks[i] = sing if sing and self.rr.random() < 0.5 else _pluralize(toks[i])
        return self._finish(toks, name)

    def _e_spelling(self, name: str, tag: str) -> str | None:
        low = name.lower()
        order = list(self.spell_us)
        self.rr.shuffle(order)
        for us, gb in order:
            if gb in low:
                return self._sub_fragment(name, gb, us)
            if us in low:
                return self._sub_fragment(name, us, gb)
        return None

    @staticmethod
    def _sub_fragment(name: str, old: str, new: str) -> str | None:
        i = name.lower().find(old)
        if name[i:i + 1].isupper():
            new = _cap(new)
        out = name[:i] + new + name[i + len(old):]
        return out if out != name else None

    def _e_hyphen(self, name: str, tag: str) -> str | None:
        m = INNER_HYPHEN_RE.search(name)
        if m:
            i = m.start()
            return name[:i] + (" " if self.rr.random() < 0.6 else "") + name[i + 1:]
        toks = name.split(" ")
        if len(toks) < 2:
            return None
        i = int(self.rr.random() * (len(toks) - 1))
        if toks[i] in FUNCTION_WORDS or toks[i + 1] in FUNCTION_WORDS:
            return None
        toks[i:i + 2] = [toks[i] + "-" + toks[i + 1]]
        return self._finish(toks, name)

    def _e_drop(self, name: str, tag: str) -> str | None:
        toks = name.split(" ")
        if len(toks) < 2:
            return None
        cands = [i for i, t in enumerate(toks) if t.lower() in self.droppable]
        if not cands:  # a modifier-like word: neither the first nor the last (the head) word
            cands = [i for i, t in enumerate(toks[:-1]) if i > 0 and t.lower() not in FUNCTION_WORDS
                     and toks[i + 1] not in FUNCTION_WORDS]
            if not cands:
                return None
        i = self._choice(cands)
        new = toks[:i] + toks[i + 1:]
        if new and new[-1] in FUNCTION_WORDS:
            new = new[:-1]
        if i == 0 and new:
            new[0] = _cap(new[0])
        if new and new[0] in ("of", "Of"):
            new = new[1:]
        return self._finish(new, name) if new else None

    def _e_add(self, name: str, tag: str) -> str | None:
        toks = name.split(" ")
        r = self.rr.random()
        if r < 0.3:
            ofs = [i for i, t in enumerate(toks[:-1]) if t == "of"
                   and toks[i + 1].lower() not in self.contrast]
            if not ofs:
                return None
            toks.insert(self._choice(ofs) + 1, self.v.pools["LAT" if r < 0.15 else "POS"]
                        .draw1(self.rr))
        elif r < 0.6:
            toks[0] = self._lower_first(toks[0])
            toks.insert(0, self.v.pools[PREFIX_POOL.get(tag, "MOD")].draw1(self.rr))
        elif r < 0.8:
            suffix = {"disorder": "disorder", "finding": "finding", "procedure": "procedure",
                      "body structure": "structure", "substance": "substance"}.get(tag, "type")
            if suffix in name.lower():
                return None
            toks.append(suffix)
        else:
            toks.append(self._choice(["NOS", "unspecified", "- finding", "nos", "type",
                                      "of unknown cause", "- rare"]))
        return self._finish(toks, name)

    def _e_reorder(self, name: str, tag: str) -> str | None:
        """"Fracture of femur" <-> "Femur fracture" (clauses after the "of" phrase stay put)."""
        toks = name.split(" ")
        if "of" in toks[1:-1]:
            i = toks.index("of")
            j = next((m for m in range(i + 2, len(toks)) if toks[m] in CLAUSE_WORDS), len(toks))
            head, rest, tail = toks[:i], toks[i + 1:j], toks[j:]
            if rest and rest[0] == "the":
                rest = rest[1:]
            if not rest or len(rest) > 4:
                return None
            if len(rest) == 1 and rest[0] in self.v.noun_to_adj and self.rr.random() < 0.5:
                rest = [self.v.noun_to_adj[rest[0]]]
            head[0] = self._lower_first(head[0])
            return self._finish(rest + head + tail, name)
        if 2 <= len(toks) <= 4 and not any(t in CLAUSE_WORDS or t in FUNCTION_WORDS
                                           for t in toks):
            k = 1 if len(toks) == 2 else 1 + int(self.rr.random() * (len(toks) - 1))
            left, right = toks[:k], toks[k:]
            if len(left) == 1 and left[0].lower() in self.v.adj_to_noun:
                left = [self.v.adj_to_noun[left[0].lower()]]
            left[0] = self._lower_first(left[0])
            return self._finish(right + ["of"] + left, name)
        return None

    def _e_comma(self, name: str, tag: str) -> str | None:
        toks = name.split(" ")
        if len(toks) < 2:
            return None
        if "," in name:
            left, _, right = name.partition(", ")
            return self._finish([right] + [self._lower_first(left)], name)
        first = toks[0].lower()
        if first in FUNCTION_WORDS:
            return None
        rest = list(toks[1:])
        rest[0] = _cap(rest[0])
        return self._finish(rest[:-1] + [rest[-1] + ","] + [first], name)

    def _e_synonym(self, name: str, tag: str) -> str | None:
        low = name.lower()
        # multi-word phrases first (curated), then single words
        for phrase, syns in (("computed tomography", ["CT scan"]),
                             ("malignant neoplasm", ["cancer", "malignant tumor"]),
                             ("magnetic resonance imaging", ["MRI scan"])):
            if phrase in low and self.rr.random() < 0.5:
                return self._sub_fragment(name, phrase, self._choice(syns))
        toks = name.split(" ")
        cands = [i for i, t in enumerate(toks) if t.lower() in self.v.word_synonyms]
        if not cands:
            return None
        i = self._choice(cands)
        rep = self._choice(self.v.word_synonyms[toks[i].lower()])
        toks[i] = _cap(rep) if i == 0 else rep
        return self._finish(toks, name)

    def _e_swap(self, name: str, tag: str) -> str | None:
        toks = name.split(" ")
        cands = [i for i, t in enumerate(toks) if t.lower() in self.v.word_class
                 and t.lower() not in FUNCTION_WORDS]
        if not cands:
            return None
        i = self._choice(cands)
        rep = self.v.pools[self.v.word_class[toks[i].lower()]].draw1(self.rr)
        toks[i] = _cap(rep) if i == 0 else rep
        return self._finish(toks, name)

    def _e_abbrev(self, name: str, tag: str) -> str | None:
        low = name.lower()
        for phrase, ab in ABBREVIATIONS:
            if len(phrase) > 5 and phrase in low:
                return self._sub_fragment(name, phrase, ab)
        toks = name.split(" ")
        for i, t in enumerate(toks):
            if t.lower() in self.expand and t.isupper():
                toks[i] = self.expand[t.lower()]
                return self._finish(toks, name)
        content = [t for t in toks if t.lower() not in FUNCTION_WORDS]
        if 2 <= len(content) <= 5 and "of" not in toks and self.rr.random() < 0.5:
            return _initials(content)
        if len(toks) >= 3:
            k = 2 if self.rr.random() < 0.7 else 3
            start = int(self.rr.random() * (len(toks) - k + 1))
            span = toks[start:start + k]
            if any(t.lower() in FUNCTION_WORDS for t in span):
                return None
            toks[start:start + k] = [_initials(span)]
            return self._finish(toks, name)
        return None

    def _e_paren(self, name: str, tag: str) -> str | None:
        content = [t for t in name.split(" ") if t.lower() not in FUNCTION_WORDS]
        if len(content) < 2 or "(" in name:
            return None
        return f"{name} ({_initials(content[:5])})"

    def _e_replace(self, name: str, tag: str) -> str | None:
        native = self.v.native_synonyms.get(name.lower())
        if native:
            return _cap(self._choice(native))
        pool = self.lay_names.get(tag) or self.lay_names.get("disorder")
        if not pool:
            return None
        return self._choice(pool)

    def _e_combo(self, name: str, tag: str) -> str | None:
        first = self.edit(name, self._choice(("drop", "reorder", "synonym", "add", "swap",
                                              "plural", "spelling")), tag)
        if not first:
            return None
        second = self.edit(first, self._choice(("drop", "reorder", "synonym", "add", "plural",
                                                "spelling", "hyphen")), tag)
        return second or first


# ---------------------------------------------------------------------------------------------------
# Identifiers
# ---------------------------------------------------------------------------------------------------
_VERHOEFF_D = np.array([
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 2, 3, 4, 0, 6, 7, 8, 9, 5], [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
    [3, 4, 0, 1, 2, 8, 9, 5, 6, 7], [4, 0, 1, 2, 3, 9, 5, 6, 7, 8], [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
    [6, 5, 9, 8, 7, 1, 0, 4, 3, 2], [7, 6, 5, 9, 8, 2, 1, 0, 4, 3], [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
    [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]], dtype=np.int64)
_VERHOEFF_P = np.array([
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [1, 5, 7, 6, 2, 8, 3, 0, 9, 4], [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
    [8, 9, 1, 6, 0, 4, 3, 5, 2, 7], [9, 4, 5, 3, 1, 2, 6, 8, 7, 0], [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
    [2, 7, 9, 3, 8, 0, 6, 4, 1, 5], [7, 0, 4, 6, 9, 1, 3, 2, 5, 8]], dtype=np.int64)
_VERHOEFF_INV = np.array([0, 4, 3, 2, 1, 5, 6, 7, 8, 9], dtype=np.int64)


def verhoeff_append(stems: np.ndarray) -> np.ndarray:
    """Append the Verhoeff check digit (SNOMED CT SCTID rule) to each stem (item id + partition)."""
    x = np.asarray(stems, dtype=np.int64).copy()
    c = np.zeros(len(x), dtype=np.int64)
    pos = 1
    while (x > 0).any():
        live = x > 0
        d = x % 10
        c[live] = _VERHOEFF_D[c[live], _VERHOEFF_P[pos % 8, d[live]]]
        x //= 10
        pos += 1
    return np.asarray(stems, dtype=np.int64) * 10 + _VERHOEFF_INV[c]


def verhoeff_valid(sctid: str) -> bool:
    c = 0
    for i, ch in enumerate(reversed(sctid)):
        c = int(_VERHOEFF_D[c, _VERHOEFF_P[i % 8, int(ch)]])
    return c == 0


def _sctids(rng: np.random.Generator, n: int, partition: int, lo: int, hi: int,
            reserved: Iterable[int] = ()) -> np.ndarray:
    """``n`` distinct random SCTIDs with the given partition (2 digits) and a valid check digit."""
    taken = np.array(sorted(set(reserved)), dtype=np.int64)
    items = np.empty(0, dtype=np.int64)
    want = n
    while len(items) < n:
        draw = rng.integers(lo, hi, size=int(want * 1.05) + 64, dtype=np.int64)
        items = np.unique(np.concatenate([items, draw]))
        items = items[~np.isin(items, taken)]
        want = n - len(items) + 64
    items = rng.permutation(items)[:n]
    return verhoeff_append(items * 100 + partition)


_UUID_NS_BYTES = UUID_NAMESPACE.bytes


def _uuid(*parts: str) -> str:
    """``str(uuid.uuid5(UUID_NAMESPACE, "|".join(parts)))``, without the UUID object (faster)."""
    h = bytearray(hashlib.sha1(_UUID_NS_BYTES + "|".join(parts).encode("utf-8")).digest()[:16])
    h[6] = (h[6] & 0x0F) | 0x50
    h[8] = (h[8] & 0x3F) | 0x80
    x = h.hex()
    return f"{x[:8]}-{x[8:12]}-{x[12:16]}-{x[16:20]}-{x[20:]}"


# ---------------------------------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------------------------------
SYN_EDIT_WEIGHTS = {"case": 0.045, "plural": 0.015, "spelling": 0.04, "hyphen": 0.006,
                    "drop": 0.09, "add": 0.07, "reorder": 0.22, "comma": 0.04, "synonym": 0.065,
                    "swap": 0.05, "abbrev": 0.09, "paren": 0.02, "replace": 0.16, "combo": 0.09}
PT_EDIT_WEIGHTS = {"reorder": 0.35, "drop": 0.2, "synonym": 0.2, "abbrev": 0.05, "replace": 0.1,
                   "spelling": 0.05, "add": 0.05}
INACTIVE_EDIT_WEIGHTS = {
    "same_as": {"spelling": 0.15, "plural": 0.15, "hyphen": 0.1, "synonym": 0.2, "reorder": 0.2,
                "case": 0.05, "comma": 0.1, "drop": 0.05},
    "replaced_by": {"drop": 0.25, "add": 0.2, "synonym": 0.2, "swap": 0.2, "reorder": 0.15},
    "possibly_equivalent_to": {"drop": 0.3, "add": 0.3, "reorder": 0.15, "swap": 0.15,
                               "combo": 0.1},
}
# Extra synonyms per concept: Poisson. Schulz & Juric's Table 2 has FSN-SYN 451,256 and SYN-SYN
# 726,158 pairs over ~350,000 concepts: with n non-FSN terms per concept, E[n] ~ 1.3 and
# E[n(n + 1) / 2] ~ 2.1, so Var[n] ~ 1.2, close to Poisson (a negative binomial with many 5+ concepts
# doubled SYN-SYN). About 92 % of the drawn edits apply to a name.
EXTRA_SYNONYMS_MEAN = 1.5
PT_DIFFERS = 0.15
INACTIVE_SHARE = 0.08
INACTIVE_DESCRIPTION_SHARE = 0.04
MARKER_SHARE = {"finding": 0.012, "situation": 0.03, "disorder": 0.006}
PAREN_ABBREV_SHARE = 0.01
MAX_NAME = 250


class _Kinds:
    """Draw edit kinds by weight with the editor's ``random.Random``."""

    def __init__(self, weights: dict[str, float], rr: random.Random) -> None:
        self.kinds = list(weights)
        w = np.array([weights[k] for k in self.kinds], dtype=np.float64)
        self.cdf = list(np.cumsum(w / w.sum()))
        self.rr = rr

    def draw(self) -> str:
        u = self.rr.random()
        for k, c in zip(self.kinds, self.cdf):
            if u <= c:
                return k
        return self.kinds[-1]


def _truncate(name: str) -> str:
    while len(name) > MAX_NAME and " " in name:
        name = name.rsplit(" ", 1)[0]
    return name[:MAX_NAME]


def _dates(rng: np.random.Generator, n: int, *, start: int = 0) -> np.ndarray:
    dates = np.array([int(d) for d in RELEASE_DATES], dtype=np.int64)
    p = RELEASE_DATE_P[start:] / RELEASE_DATE_P[start:].sum()
    return dates[start:][rng.choice(len(dates) - start, size=n, p=p)]


@dataclass
class _Tables:
    # concepts (index = position)
    c_id: list[str] = field(default_factory=list)
    c_time: list[int] = field(default_factory=list)
    c_active: list[bool] = field(default_factory=list)
    c_module: list[str] = field(default_factory=list)
    c_defstatus: list[str] = field(default_factory=list)
    c_tag: list[str] = field(default_factory=list)
    c_name: list[str] = field(default_factory=list)
    # descriptions
    d_concept: list[int] = field(default_factory=list)
    d_term: list[str] = field(default_factory=list)
    d_fsn: list[bool] = field(default_factory=list)
    d_active: list[bool] = field(default_factory=list)
    d_preferred: list[bool] = field(default_factory=list)
    # relationships (source index, destination index, group, type id)
    r_src: list[int] = field(default_factory=list)
    r_dst: list[int] = field(default_factory=list)
    r_group: list[int] = field(default_factory=list)
    r_type: list[str] = field(default_factory=list)
    # associations (inactive index, target index, kind)
    a_src: list[int] = field(default_factory=list)
    a_dst: list[int] = field(default_factory=list)
    a_kind: list[str] = field(default_factory=list)

    def add_description(self, concept: int, term: str, fsn: bool, preferred: bool,
                        active: bool = True) -> None:
        self.d_concept.append(concept)
        self.d_term.append(term)
        self.d_fsn.append(fsn)
        self.d_preferred.append(preferred)
        self.d_active.append(active)


def _log(verbose: bool, t0: float, msg: str) -> None:
    if verbose:
        print(f"[{time.perf_counter() - t0:6.1f}s] {msg}", file=sys.stderr, flush=True)


def _build(n_concepts: int, seed: int, voc: Vocabulary, verbose: bool, t0: float) -> _Tables:
    n_fixed = len(FIXED_CONCEPTS)
    if n_concepts < n_fixed + 100:
        raise ValueError(f"--concepts must be at least {n_fixed + 100}, got {n_concepts}")
    rng = np.random.default_rng(seed)
    rr = random.Random(int(rng.integers(2**62)))
    ed = Editor(voc, rr, rng)
    tb = _Tables()

    # -- fixed concepts --------------------------------------------------------------------------
    index_of: dict[str, int] = {}
    for cid, fsn, module, _parent in FIXED_CONCEPTS:
        index_of[cid] = len(tb.c_id)
        tb.c_id.append(cid)
        tb.c_time.append(20020131)
        tb.c_active.append(True)
        tb.c_module.append(module)
        tb.c_defstatus.append(PRIMITIVE)
        name, _, tag = fsn.rpartition(" (")
        tb.c_tag.append(tag[:-1])
        tb.c_name.append(name)
    for cid, _fsn, _module, parent in FIXED_CONCEPTS:
        if parent:
            tb.r_src.append(index_of[cid])
            tb.r_dst.append(index_of[parent])
            tb.r_group.append(0)
            tb.r_type.append(IS_A)

    # -- active generated concepts: tags, names, siblings ------------------------------------------
    n_gen = n_concepts - n_fixed
    n_inactive = round(INACTIVE_SHARE * n_concepts)
    n_active = n_gen - n_inactive
    tag_names = [t for t, _, _ in TAGS]
    tag_w = np.array([w for _, w, _ in TAGS], dtype=np.float64)
    tag_of = rng.choice(len(TAGS), size=n_active, p=tag_w / tag_w.sum())
    names: list[str] = [""] * n_active
    sib_base = np.full(n_active, -1, dtype=np.int64)
    groups: dict[str, np.ndarray] = {}
    lay: dict[str, list[str]] = {}
    for t, tag in enumerate(tag_names):
        idx = np.flatnonzero(tag_of == t)
        groups[tag] = idx
        k = len(idx)
        if k == 0:
            continue
        base = render_names(tag, k, rng, voc)
        lay[tag] = render_names(tag, min(20000, max(50, k // 4)), rng, voc)
        is_sib = rng.random(k) < SIBLING_FRACTION.get(tag, SIBLING_DEFAULT)
        is_sib[0] = False
        earlier = np.floor(rng.random(k) * np.arange(k)).astype(np.int64)
        for s in np.flatnonzero(is_sib).tolist():
            base[s] = ed.mutate(base[earlier[s]], tag)
            sib_base[idx[s]] = idx[earlier[s]]
        marker = MARKER_SHARE.get(tag, 0.0)
        if marker:
            for s in np.flatnonzero(rng.random(k) < marker).tolist():
                r = rr.random()
                base[s] = (f"[D]{base[s]}" if r < 0.6 else f"{base[s]} [D]" if r < 0.7
                           else f"[X]{base[s]}" if r < 0.9 else f"[V]{base[s]}")
        for s in np.flatnonzero(rng.random(k) < PAREN_ABBREV_SHARE).tolist():
            base[s] = ed.edit(base[s], "paren", tag) or base[s]
        for s, at in enumerate(idx.tolist()):
            names[at] = _truncate(base[s])
    # unique FSNs among active concepts
    seen: set[str] = set()
    for j in range(n_active):
        tag = tag_names[tag_of[j]]
        tries = 0
        original = names[j]
        single = SINGLE_WORD_POOL.get(tag) if " " not in original else None
        while f"{names[j]} ({tag})" in seen:
            tries += 1
            if single and tries <= 6:  # keep one-word names one word: draw another word
                names[j] = _cap(voc.pools[single].draw1(rr))
                continue
            names[j] = _truncate(ed.mutate(names[j], tag) if tries <= 14
                                 else f"{original} {tries - 14}")
        seen.add(f"{names[j]} ({tag})")
    _log(verbose, t0, f"named {n_active:,} active concepts")
    # lay names ("replace" synonyms) never equal another concept's name
    names_lower = {n.lower() for n in names}
    ed.set_lay_names({t: [n for n in v if n.lower() not in names_lower] for t, v in lay.items()})

    first_gen = len(tb.c_id)
    times = _dates(rng, n_active)
    defined = rng.random(n_active) < 0.28
    for j in range(n_active):
        tag = tag_names[tag_of[j]]
        tb.c_time.append(int(times[j]))
        tb.c_active.append(True)
        tb.c_module.append(MODEL_MODULE if tag in MODEL_TAGS else CORE_MODULE)
        tb.c_defstatus.append(DEFINED if defined[j] and tag not in MODEL_TAGS else PRIMITIVE)
        tb.c_tag.append(tag)
        tb.c_name.append(names[j])
    tb.c_id.extend([""] * n_active)

    # -- descriptions of active concepts ---------------------------------------------------------------
    extra = np.minimum(rng.poisson(EXTRA_SYNONYMS_MEAN, size=n_active), 12)
    pt_differs = rng.random(n_active) < PT_DIFFERS
    inactive_desc = rng.random(n_active) < INACTIVE_DESCRIPTION_SHARE
    used_lower = set(names_lower)
    syn_kinds = _Kinds(SYN_EDIT_WEIGHTS, rr)
    pt_kinds = _Kinds(PT_EDIT_WEIGHTS, rr)
    for cid, fsn, _module, _parent in FIXED_CONCEPTS:
        c = index_of[cid]
        tb.add_description(c, fsn, True, True)
        tb.add_description(c, tb.c_name[c], False, True)
    for j in range(n_active):
        c = first_gen + j
        tag = tb.c_tag[c]
        name = names[j]
        tb.add_description(c, f"{name} ({tag})", True, True)
        terms = {name}
        pt = name
        if pt_differs[j]:
            pt = ed.edit(name, pt_kinds.draw(), tag) or name
        tb.add_description(c, pt, False, True)
        terms.add(pt)
        n_extra = 0 if tag in MODEL_TAGS else int(extra[j])
        native = list(voc.native_synonyms.get(name.lower(), ()))
        for _ in range(n_extra):
            syn = None
            for _try in range(4):
                if native:
                    syn = _cap(native.pop(0))
                else:
                    syn = ed.edit(name, syn_kinds.draw(), tag)
                if syn and syn not in terms and len(syn) <= 255:
                    low = syn.lower()
                    # terms of other concepts are rarely reused (ambiguous terms exist, but few)
                    if low == name.lower() or low not in used_lower or rr.random() < 0.1:
                        used_lower.add(low)
                        break
                syn = None
            if syn:
                terms.add(syn)
                tb.add_description(c, syn, False, False)
        if inactive_desc[j]:
            old = ed.edit(name, syn_kinds.draw(), tag)
            if old and old not in terms:
                tb.add_description(c, old, False, False, active=False)
    _log(verbose, t0, f"{len(tb.d_term):,} descriptions for active concepts")

    # -- inactive concepts with one association each --------------------------------------------------
    clinical = np.flatnonzero(~np.isin(tag_of, [tag_names.index(t) for t in MODEL_TAGS]))
    targets = clinical[rng.integers(0, len(clinical), size=n_inactive)]
    kind_w = np.array([w for _, _, w in ASSOCIATION_KINDS], dtype=np.float64)
    kinds = rng.choice(len(ASSOCIATION_KINDS), size=n_inactive, p=kind_w / kind_w.sum())
    kind_draw = {k: _Kinds(w, rr) for k, w in INACTIVE_EDIT_WEIGHTS.items()}
    inactive_times = _dates(rng, n_inactive, start=6)
    first_inactive = len(tb.c_id)
    for m in range(n_inactive):
        target = int(targets[m])
        tag = tag_names[tag_of[target]]
        kind = ASSOCIATION_KINDS[kinds[m]][0]
        tname = names[target]
        edited: str | None = None
        for _try in range(5):
            edited = ed.edit(tname, kind_draw[kind].draw(), tag)
            if edited and f"{edited} ({tag})" not in seen:
                break
            edited = None
        name = _truncate(edited or f"{tname} NOS")
        c = len(tb.c_id)
        tb.c_id.append("")
        tb.c_time.append(int(inactive_times[m]))
        tb.c_active.append(False)
        tb.c_module.append(CORE_MODULE)
        tb.c_defstatus.append(PRIMITIVE)
        tb.c_tag.append(tag)
        tb.c_name.append(name)
        tb.add_description(c, f"{name} ({tag})", True, True)
        tb.add_description(c, name, False, True)
        tb.a_src.append(c)
        tb.a_dst.append(first_gen + target)
        tb.a_kind.append(kind)
    assert len(tb.c_id) == n_concepts == first_inactive + n_inactive
    _log(verbose, t0, f"{n_inactive:,} inactive concepts with associations")

    # -- relationships ----------------------------------------------------------------------------
    top_of = {t: index_of[top] for t, _, top in TAGS}
    parent0 = np.full(n_active, -1, dtype=np.int64)
    for tag, idx in groups.items():
        k = len(idx)
        if k == 0:
            continue
        rank = np.arange(k)
        pick = idx[np.floor(rng.random(k) * rank).astype(np.int64)]
        to_top = (rank == 0) | (rng.random(k) < 0.12)
        parent0[idx] = np.where(to_top, -1, pick)
        n_more = rng.choice(3, size=k, p=[0.62, 0.28, 0.10])
        more1 = idx[np.floor(rng.random(k) * rank).astype(np.int64)]
        more2 = idx[np.floor(rng.random(k) * rank).astype(np.int64)]
        for n, j in enumerate(idx.tolist()):
            p0 = int(parent0[sib_base[j]]) if sib_base[j] >= 0 else int(parent0[j])
            parent0[j] = p0
            parents = [first_gen + p0 if p0 >= 0 else top_of[tag]]
            if n > 0 and n_more[n] >= 1:
                parents.append(first_gen + int(more1[n]))
            if n > 0 and n_more[n] >= 2:
                parents.append(first_gen + int(more2[n]))
            for p in dict.fromkeys(parents):
                if p != first_gen + j:
                    tb.r_src.append(first_gen + j)
                    tb.r_dst.append(p)
                    tb.r_group.append(0)
                    tb.r_type.append(IS_A)
    attr_rules = {
        "disorder": [(FINDING_SITE, "body structure", 0.75), (ASSOCIATED_MORPHOLOGY,
                     "morphologic abnormality", 0.6), (CAUSATIVE_AGENT, "organism", 0.08)],
        "finding": [(FINDING_SITE, "body structure", 0.6)],
        "procedure": [(PROCEDURE_SITE_DIRECT, "body structure", 0.6),
                      (METHOD, "qualifier value", 0.7)],
        "medicinal product": [(HAS_ACTIVE_INGREDIENT, "substance", 0.95)],
        "medicinal product form": [(HAS_ACTIVE_INGREDIENT, "substance", 0.95),
                                   (HAS_DOSE_FORM, "dose form", 0.9)],
        "clinical drug": [(HAS_ACTIVE_INGREDIENT, "substance", 0.95),
                          (HAS_DOSE_FORM, "dose form", 0.9)],
        "observable entity": [(COMPONENT, "substance", 0.4)],
    }
    for tag, rules in attr_rules.items():
        src = groups.get(tag, np.empty(0, dtype=np.int64))
        for type_id, dst_tag, share in rules:
            dst = groups.get(dst_tag, np.empty(0, dtype=np.int64))
            if len(src) == 0 or len(dst) == 0:
                continue
            has = src[rng.random(len(src)) < share]
            chosen = dst[np.minimum((rng.pareto(1.2, len(has)) * len(dst) / 50).astype(np.int64),
                                    len(dst) - 1)]
            grp = np.where(rng.random(len(has)) < 0.7, 1, 0)
            tb.r_src.extend((first_gen + has).tolist())
            tb.r_dst.extend((first_gen + chosen).tolist())
            tb.r_group.extend(grp.tolist())
            tb.r_type.extend([type_id] * len(has))
    _log(verbose, t0, f"{len(tb.r_src):,} relationships")

    # -- identifiers ------------------------------------------------------------------------------
    fixed_items = [int(cid) // 1000 for cid, *_ in FIXED_CONCEPTS]
    gen_modules = np.array(tb.c_module[first_gen:], dtype=object)
    is_model = gen_modules == MODEL_MODULE
    n_regular = int((~is_model).sum())
    regular = _sctids(rng, n_regular, 0, 10**4, 10**7, fixed_items)
    model = _sctids(rng, int(is_model.sum()), 0, 900_000_000_001_000, 900_000_000_100_000,
                    fixed_items)
    ids = np.empty(n_concepts - first_gen, dtype=np.int64)
    ids[~is_model] = regular
    ids[is_model] = model
    tb.c_id[first_gen:] = [str(i) for i in ids.tolist()]
    return tb


def _case_significance(term: str, lower_words: frozenset[str]) -> str:
    rest = term[1:]
    if rest == rest.lower():
        return CASE_INSENSITIVE
    first = term.split(" ", 1)[0]
    if first[:1].isupper() and first.lower() not in lower_words:
        return CASE_SENSITIVE
    return INITIAL_INSENSITIVE


def _write_table(path: Path, header: str, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(header)
        fh.write("\n")
        if lines:
            fh.write("\n".join(lines))
            fh.write("\n")
    os.replace(tmp, path)


def _write(tb: _Tables, out_dir: Path, seed: int, voc: Vocabulary) -> dict[str, int]:
    rng = np.random.default_rng([seed, 1])
    n = len(tb.c_id)
    # concepts
    c_ids = np.array([int(x) for x in tb.c_id], dtype=np.int64)
    order = np.argsort(c_ids, kind="stable")
    lines = [f"{tb.c_id[i]}\t{tb.c_time[i]}\t{int(tb.c_active[i])}\t{tb.c_module[i]}\t"
             f"{tb.c_defstatus[i]}" for i in order.tolist()]
    _write_table(out_dir / RELATIVE_PATHS["concept"], HEADERS["concept"], lines)

    # descriptions
    nd = len(tb.d_term)
    d_ids = _sctids(rng, nd, 1, 10**5, 10**8)
    d_conc = np.array(tb.d_concept, dtype=np.int64)
    c_time = np.array(tb.c_time, dtype=np.int64)
    d_time = np.maximum(c_time[d_conc], _dates(rng, nd))
    is_fixed = d_conc < len(FIXED_CONCEPTS)
    d_time[is_fixed] = c_time[d_conc[is_fixed]]
    d_id_str = [str(x) for x in d_ids.tolist()]
    d_time_l = d_time.tolist()
    modules = tb.c_module
    order = np.argsort(d_ids, kind="stable").tolist()
    lines = []
    lang: list[tuple[str, str]] = []
    for i in order:
        c = tb.d_concept[i]
        term = tb.d_term[i]
        type_id = FSN_TYPE if tb.d_fsn[i] else SYN_TYPE
        lines.append(f"{d_id_str[i]}\t{d_time_l[i]}\t{int(tb.d_active[i])}\t{modules[c]}\t"
                     f"{tb.c_id[c]}\ten\t{type_id}\t{term}\t"
                     f"{_case_significance(term, voc.lower_words)}")
    _write_table(out_dir / RELATIVE_PATHS["description"], HEADERS["description"], lines)
    del lines

    # language refset (US): FSN and PT preferred, other synonyms acceptable
    for i in range(nd):
        acc = PREFERRED if tb.d_preferred[i] else ACCEPTABLE
        lang.append((_uuid(US_LANG_REFSET, d_id_str[i]),
                     (f"\t{d_time_l[i]}\t{int(tb.d_active[i])}\t{modules[tb.d_concept[i]]}\t"
                     f"{US_LANG_REFSET}\t{d_id_str[i]}\t{acc}")))
    lang.sort()
    _write_table(out_dir / RELATIVE_PATHS["language"], HEADERS["language"],
                 [u + rest for u, rest in lang])
    n_lang = len(lang)
    del lang

    # associations
    refset_of = {k: r for k, r, _ in ASSOCIATION_KINDS}
    assoc = []
    for s, t, k in zip(tb.a_src, tb.a_dst, tb.a_kind):
        refset = refset_of[k]
        assoc.append((_uuid(refset, tb.c_id[s], tb.c_id[t]),
                      f"\t{tb.c_time[s]}\t1\t{CORE_MODULE}\t{refset}\t{tb.c_id[s]}\t{tb.c_id[t]}"))
    assoc.sort()
    _write_table(out_dir / RELATIVE_PATHS["association"], HEADERS["association"],
                 [u + rest for u, rest in assoc])

    # relationships
    nr = len(tb.r_src)
    r_ids = _sctids(rng, nr, 2, 10**6, 10**9)
    r_src = np.array(tb.r_src, dtype=np.int64)
    r_time = np.maximum(c_time[r_src], _dates(rng, nr)).tolist()
    r_id_str = [str(x) for x in r_ids.tolist()]
    order = np.argsort(r_ids, kind="stable").tolist()
    lines = [f"{r_id_str[i]}\t{r_time[i]}\t1\t{modules[tb.r_src[i]]}\t{tb.c_id[tb.r_src[i]]}\t"
             f"{tb.c_id[tb.r_dst[i]]}\t{tb.r_group[i]}\t{tb.r_type[i]}\t{INFERRED}\t{EXISTENTIAL}"
             for i in order]
    _write_table(out_dir / RELATIVE_PATHS["relationship"], HEADERS["relationship"], lines)

    active = np.array(tb.c_active)
    d_active = np.array(tb.d_active)
    d_fsn = np.array(tb.d_fsn)
    d_pref = np.array(tb.d_preferred)
    kinds = Counter(tb.a_kind)
    is_a = sum(1 for t in tb.r_type if t == IS_A)
    return {
        "concepts": n,
        "concepts_active": int(active.sum()),
        "concepts_inactive": int((~active).sum()),
        "concepts_model_component": sum(1 for m in tb.c_module if m == MODEL_MODULE),
        "descriptions": nd,
        "descriptions_fsn": int(d_fsn.sum()),
        "descriptions_synonym": int((~d_fsn).sum()),
        "descriptions_synonym_active": int((~d_fsn & d_active).sum()),
        "descriptions_inactive": int((~d_active).sum()),
        "language_rows": n_lang,
        "language_preferred": int(d_pref.sum()),
        "language_acceptable": int((~d_pref).sum()),
        "associations": len(tb.a_src),
        "association_possibly_equivalent_to": kinds.get("possibly_equivalent_to", 0),
        "association_replaced_by": kinds.get("replaced_by", 0),
        "association_same_as": kinds.get("same_as", 0),
        "relationships": nr,
        "relationships_is_a": is_a,
        "relationships_attribute": nr - is_a,
    }


_MARKER_RE = re.compile(r"^\s*\[D\]\s*|\s*\[D\]\s*$")


def _strip_fsn(fsn: str) -> str:
    name = fsn.rsplit(" (", 1)[0] if fsn.endswith(")") else fsn
    return _MARKER_RE.sub("", name)


def term_statistics(tb: _Tables) -> dict[str, float]:
    """String statistics of the release (FSN lengths; FSN-SYN Levenshtein as termpairs computes)."""
    n_fixed = len(FIXED_CONCEPTS)
    fsn_of: dict[int, str] = {}
    syns: dict[int, list[str]] = defaultdict(list)
    for c, term, fsn, act in zip(tb.d_concept, tb.d_term, tb.d_fsn, tb.d_active):
        if c < n_fixed or not act or not tb.c_active[c] or tb.c_module[c] == MODEL_MODULE:
            continue
        if fsn:
            fsn_of[c] = _strip_fsn(term)
        else:
            syns[c].append(term)
    lengths = np.array([len(v) for v in fsn_of.values()], dtype=np.float64)
    multi = np.mean([" " in v for v in fsn_of.values()])
    stats: dict[str, float] = {
        "fsn_name_mean_length": float(lengths.mean()),
        "fsn_name_min_length": float(lengths.min()),
        "fsn_name_max_length": float(lengths.max()),
        "fsn_name_multiword_share": float(multi),
    }
    pairs_a: list[str] = []
    pairs_b: list[str] = []
    for c, name in fsn_of.items():
        low = name.lower()
        done = {low}
        for s in syns.get(c, ()):
            sl = s.lower()
            if sl in done:
                continue
            done.add(sl)
            pairs_a.append(low)
            pairs_b.append(sl)
    stats["fsn_syn_pairs"] = float(len(pairs_a))
    try:
        from rapidfuzz.distance import Levenshtein
    except ImportError:  # pragma: no cover - the statistics are optional
        return stats
    d = np.array([Levenshtein.distance(a, b) for a, b in zip(pairs_a, pairs_b)], dtype=np.float64)
    stats["fsn_syn_levenshtein_mean"] = float(d.mean()) if len(d) else float("nan")
    stats["fsn_syn_easy_share"] = float((d <= 5).mean()) if len(d) else float("nan")
    by_kind: dict[str, list[int]] = defaultdict(list)
    for src, dst, kind in zip(tb.a_src, tb.a_dst, tb.a_kind):
        a = _strip_fsn(f"{tb.c_name[src]} (x)").lower()
        b = _strip_fsn(f"{tb.c_name[dst]} (x)").lower()
        if a != b:
            by_kind[kind].append(Levenshtein.distance(a, b))
    for k, v in sorted(by_kind.items()):
        stats[f"{k}_levenshtein_mean"] = float(np.mean(v))
        stats[f"{k}_easy_share"] = float(np.mean(np.array(v) <= 5))
    return stats


def nearest_neighbour_sample(tb: _Tables, n_queries: int, seed: int) -> dict[str, float]:
    """Mean distance from sampled FSN names to the nearest term of *another* concept (rapidfuzz)."""
    from rapidfuzz import process
    from rapidfuzz.distance import Levenshtein

    n_fixed = len(FIXED_CONCEPTS)
    terms: list[str] = []
    owner: list[int] = []
    fsn_pos: list[int] = []
    for c, term, fsn, act in zip(tb.d_concept, tb.d_term, tb.d_fsn, tb.d_active):
        if c < n_fixed or not act or not tb.c_active[c] or tb.c_module[c] == MODEL_MODULE:
            continue
        if fsn:
            fsn_pos.append(len(terms))
            term = _strip_fsn(term)
        terms.append(term.lower())
        owner.append(c)
    own = np.array(owner)
    rng = np.random.default_rng([seed, 2])
    qs = rng.choice(np.array(fsn_pos), size=min(n_queries, len(fsn_pos)), replace=False)
    nn = np.empty(len(qs), dtype=np.int64)
    for start in range(0, len(qs), 32):
        block = qs[start:start + 32]
        dist = process.cdist([terms[q] for q in block], terms, scorer=Levenshtein.distance,
                             dtype=np.int32, workers=-1)
        for row, q in enumerate(block):
            dist[row, own == own[q]] = np.iinfo(np.int32).max
        nn[start:start + len(block)] = dist.min(axis=1)
    return {"nn_queries": float(len(qs)), "nn_levenshtein_mean": float(nn.mean()),
            "nn_levenshtein_median": float(np.median(nn)),
            "nn_share_le_5": float((nn <= 5).mean())}


def generate_rf2(out_dir: str | os.PathLike[str], n_concepts: int = DEFAULT_CONCEPTS, seed: int = 0,
                 *, data_dir: str | os.PathLike[str] | None = None, verbose: bool = False,
                 nn_sample: int = 0) -> dict[str, int]:
    """Write a synthetic RF2 Snapshot release under ``out_dir``; return the row counts."""
    t0 = time.perf_counter()
    voc = load_vocabulary(str(Path(data_dir) if data_dir else default_data_dir()))
    _log(verbose, t0, "vocabulary: " + ", ".join(f"{k}={v:,}" for k, v in voc.sources.items()))
    tb = _build(int(n_concepts), int(seed), voc, verbose, t0)
    counts = _write(tb, Path(out_dir), int(seed), voc)
    _log(verbose, t0, f"wrote {Path(out_dir) / 'Snapshot'}")
    if verbose:
        for k, v in counts.items():
            print(f"{k:40s} {v:>12,}")
        stats = term_statistics(tb)
        if nn_sample:
            stats.update(nearest_neighbour_sample(tb, nn_sample, seed))
        for key, value in stats.items():
            print(f"{key:40s} {value:>12.3f}" if not float(value).is_integer()
                  else f"{key:40s} {int(value):>12,}")
        _log(verbose, t0, "done")
    return counts


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, type=Path, help="output directory (gets Snapshot/)")
    parser.add_argument("--concepts", type=int, default=DEFAULT_CONCEPTS,
                        help=f"number of concepts (default {DEFAULT_CONCEPTS:,})")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--data-dir", type=Path, default=None,
                        help="source mirror with bc5cdr/, ncbi-disease/, nltk_data/, obo/ "
                             "(default: $BIOSEM_DATA_DIR or ../shared/data)")
    parser.add_argument("--nn-sample", type=int, default=0,
                        help="also report nearest-neighbour distances for this many FSNs")
    parser.add_argument("--quiet", action="store_true", help="print nothing")
    args = parser.parse_args(argv)
    generate_rf2(args.out, args.concepts, args.seed, data_dir=args.data_dir,
                 verbose=not args.quiet, nn_sample=args.nn_sample)
    return 0


if __name__ == "__main__":
    sys.exit(main())
