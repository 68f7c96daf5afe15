"""Bio-SimLex / Bio-SimVerb (Chiu et al. 2018): vocabulary, domain split, lexical relations, pairs, survey."""
