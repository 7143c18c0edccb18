//! arXiv's category taxonomy, embedded: every category a paper can carry, including the
//! archives of the 1990s that were later subsumed (`alg-geom` → `math.AG`, `chao-dyn` →
//! `nlin.CD`, …), which old papers still carry in their metadata.
//!
//! Generated from `CATEGORIES` in arXiv's own definitions, `arxiv/taxonomy/definitions.py` of
//! github.com/arXiv/arxiv-base (commit 0f94fa0, 2026-06-29; MIT licence, © Cornell
//! University), without its `bad-arch.bad-cat` test sentinel. Category ids are
//! case-sensitive (`cs.DC`, `math-ph`), as arXiv writes them (`--primary cs.dc` was
//! accepted and changed the number).

/// Every category: id, full name, and whether arXiv still accepts new submissions in it.
/// Sorted by id (byte order) for binary search.
pub const CATEGORIES: &[(&str, &str, bool)] = &[
    ("acc-phys", "Accelerator Physics", false),
    (
        "adap-org",
        "Adaptation, Noise, and Self-Organizing Systems",
        false,
    ),
    ("alg-geom", "Algebraic Geometry", false),
    ("ao-sci", "Atmospheric-Oceanic Sciences", false),
    ("astro-ph", "Astrophysics", false),
    (
        "astro-ph.CO",
        "Cosmology and Nongalactic Astrophysics",
        true,
    ),
    ("astro-ph.EP", "Earth and Planetary Astrophysics", true),
    ("astro-ph.GA", "Astrophysics of Galaxies", true),
    ("astro-ph.HE", "High Energy Astrophysical Phenomena", true),
    (
        "astro-ph.IM",
        "Instrumentation and Methods for Astrophysics",
        true,
    ),
    ("astro-ph.SR", "Solar and Stellar Astrophysics", true),
    ("atom-ph", "Atomic, Molecular and Optical Physics", false),
    ("bayes-an", "Bayesian Analysis", false),
    ("chao-dyn", "Chaotic Dynamics", false),
    ("chem-ph", "Chemical Physics", false),
    ("cmp-lg", "Computation and Language", false),
    ("comp-gas", "Cellular Automata and Lattice Gases", false),
    ("cond-mat", "Condensed Matter", false),
    (
        "cond-mat.dis-nn",
        "Disordered Systems and Neural Networks",
        true,
    ),
    ("cond-mat.mes-hall", "Mesoscale and Nanoscale Physics", true),
    ("cond-mat.mtrl-sci", "Materials Science", true),
    ("cond-mat.other", "Other Condensed Matter", true),
    ("cond-mat.quant-gas", "Quantum Gases", true),
    ("cond-mat.soft", "Soft Condensed Matter", true),
    ("cond-mat.stat-mech", "Statistical Mechanics", true),
    ("cond-mat.str-el", "Strongly Correlated Electrons", true),
    ("cond-mat.supr-con", "Superconductivity", true),
    ("cs.AI", "Artificial Intelligence", true),
    ("cs.AR", "Hardware Architecture", true),
    ("cs.CC", "Computational Complexity", true),
    (
        "cs.CE",
        "Computational Engineering, Finance, and Science",
        true,
    ),
    ("cs.CG", "Computational Geometry", true),
    ("cs.CL", "Computation and Language", true),
    ("cs.CR", "Cryptography and Security", true),
    ("cs.CV", "Computer Vision and Pattern Recognition", true),
    ("cs.CY", "Computers and Society", true),
    ("cs.DB", "Databases", true),
    (
        "cs.DC",
        "Distributed, Parallel, and Cluster Computing",
        true,
    ),
    ("cs.DL", "Digital Libraries", true),
    ("cs.DM", "Discrete Mathematics", true),
    ("cs.DS", "Data Structures and Algorithms", true),
    ("cs.ET", "Emerging Technologies", true),
    ("cs.FL", "Formal Languages and Automata Theory", true),
    ("cs.GL", "General Literature", true),
    ("cs.GR", "Graphics", true),
    ("cs.GT", "Computer Science and Game Theory", true),
    ("cs.HC", "Human-Computer Interaction", true),
    ("cs.IR", "Information Retrieval", true),
    ("cs.IT", "Information Theory", true),
    ("cs.LG", "Machine Learning", true),
    ("cs.LO", "Logic in Computer Science", true),
    ("cs.MA", "Multiagent Systems", true),
    ("cs.MM", "Multimedia", true),
    ("cs.MS", "Mathematical Software", true),
    ("cs.NA", "Numerical Analysis", true),
    ("cs.NE", "Neural and Evolutionary Computing", true),
    ("cs.NI", "Networking and Internet Architecture", true),
    ("cs.OH", "Other Computer Science", true),
    ("cs.OS", "Operating Systems", true),
    ("cs.PF", "Performance", true),
    ("cs.PL", "Programming Languages", true),
    ("cs.RO", "Robotics", true),
    ("cs.SC", "Symbolic Computation", true),
    ("cs.SD", "Sound", true),
    ("cs.SE", "Software Engineering", true),
    ("cs.SI", "Social and Information Networks", true),
    ("cs.SY", "Systems and Control", true),
    ("dg-ga", "Differential Geometry", false),
    ("econ.EM", "Econometrics", true),
    ("econ.GN", "General Economics", true),
    ("econ.TH", "Theoretical Economics", true),
    ("eess.AS", "Audio and Speech Processing", true),
    ("eess.IV", "Image and Video Processing", true),
    ("eess.SP", "Signal Processing", true),
    ("eess.SY", "Systems and Control", true),
    ("funct-an", "Functional Analysis", false),
    ("gr-qc", "General Relativity and Quantum Cosmology", true),
    ("hep-ex", "High Energy Physics - Experiment", true),
    ("hep-lat", "High Energy Physics - Lattice", true),
    ("hep-ph", "High Energy Physics - Phenomenology", true),
    ("hep-th", "High Energy Physics - Theory", true),
    ("math-ph", "Mathematical Physics", true),
    ("math.AC", "Commutative Algebra", true),
    ("math.AG", "Algebraic Geometry", true),
    ("math.AP", "Analysis of PDEs", true),
    ("math.AT", "Algebraic Topology", true),
    ("math.CA", "Classical Analysis and ODEs", true),
    ("math.CO", "Combinatorics", true),
    ("math.CT", "Category Theory", true),
    ("math.CV", "Complex Variables", true),
    ("math.DG", "Differential Geometry", true),
    ("math.DS", "Dynamical Systems", true),
    ("math.FA", "Functional Analysis", true),
    ("math.GM", "General Mathematics", true),
    ("math.GN", "General Topology", true),
    ("math.GR", "Group Theory", true),
    ("math.GT", "Geometric Topology", true),
    ("math.HO", "History and Overview", true),
    ("math.IT", "Information Theory", true),
    ("math.KT", "K-Theory and Homology", true),
    ("math.LO", "Logic", true),
    ("math.MG", "Metric Geometry", true),
    ("math.MP", "Mathematical Physics", true),
    ("math.NA", "Numerical Analysis", true),
    ("math.NT", "Number Theory", true),
    ("math.OA", "Operator Algebras", true),
    ("math.OC", "Optimization and Control", true),
    ("math.PR", "Probability", true),
    ("math.QA", "Quantum Algebra", true),
    ("math.RA", "Rings and Algebras", true),
    ("math.RT", "Representation Theory", true),
    ("math.SG", "Symplectic Geometry", true),
    ("math.SP", "Spectral Theory", true),
    ("math.ST", "Statistics Theory", true),
    ("mtrl-th", "Materials Theory", false),
    ("nlin.AO", "Adaptation and Self-Organizing Systems", true),
    ("nlin.CD", "Chaotic Dynamics", true),
    ("nlin.CG", "Cellular Automata and Lattice Gases", true),
    ("nlin.PS", "Pattern Formation and Solitons", true),
    ("nlin.SI", "Exactly Solvable and Integrable Systems", true),
    ("nucl-ex", "Nuclear Experiment", true),
    ("nucl-th", "Nuclear Theory", true),
    ("patt-sol", "Pattern Formation and Solitons", false),
    ("physics.acc-ph", "Accelerator Physics", true),
    ("physics.ao-ph", "Atmospheric and Oceanic Physics", true),
    ("physics.app-ph", "Applied Physics", true),
    ("physics.atm-clus", "Atomic and Molecular Clusters", true),
    ("physics.atom-ph", "Atomic Physics", true),
    ("physics.bio-ph", "Biological Physics", true),
    ("physics.chem-ph", "Chemical Physics", true),
    ("physics.class-ph", "Classical Physics", true),
    ("physics.comp-ph", "Computational Physics", true),
    (
        "physics.data-an",
        "Data Analysis, Statistics and Probability",
        true,
    ),
    ("physics.ed-ph", "Physics Education", true),
    ("physics.flu-dyn", "Fluid Dynamics", true),
    ("physics.gen-ph", "General Physics", true),
    ("physics.geo-ph", "Geophysics", true),
    ("physics.hist-ph", "History and Philosophy of Physics", true),
    ("physics.ins-det", "Instrumentation and Detectors", true),
    ("physics.med-ph", "Medical Physics", true),
    ("physics.optics", "Optics", true),
    ("physics.plasm-ph", "Plasma Physics", true),
    ("physics.pop-ph", "Popular Physics", true),
    ("physics.soc-ph", "Physics and Society", true),
    ("physics.space-ph", "Space Physics", true),
    ("plasm-ph", "Plasma Physics", false),
    ("q-alg", "Quantum Algebra and Topology", false),
    ("q-bio", "Quantitative Biology", false),
    ("q-bio.BM", "Biomolecules", true),
    ("q-bio.CB", "Cell Behavior", true),
    ("q-bio.GN", "Genomics", true),
    ("q-bio.MN", "Molecular Networks", true),
    ("q-bio.NC", "Neurons and Cognition", true),
    ("q-bio.OT", "Other Quantitative Biology", true),
    ("q-bio.PE", "Populations and Evolution", true),
    ("q-bio.QM", "Quantitative Methods", true),
    ("q-bio.SC", "Subcellular Processes", true),
    ("q-bio.TO", "Tissues and Organs", true),
    ("q-fin.CP", "Computational Finance", true),
    ("q-fin.EC", "Economics", true),
    ("q-fin.GN", "General Finance", true),
    ("q-fin.MF", "Mathematical Finance", true),
    ("q-fin.PM", "Portfolio Management", true),
    ("q-fin.PR", "Pricing of Securities", true),
    ("q-fin.RM", "Risk Management", true),
    ("q-fin.ST", "Statistical Finance", true),
    ("q-fin.TR", "Trading and Market Microstructure", true),
    ("quant-ph", "Quantum Physics", true),
    ("solv-int", "Exactly Solvable and Integrable Systems", false),
    ("stat.AP", "Applications", true),
    ("stat.CO", "Computation", true),
    ("stat.ME", "Methodology", true),
    ("stat.ML", "Machine Learning", true),
    ("stat.OT", "Other Statistics", true),
    ("stat.TH", "Statistics Theory", true),
    ("supr-con", "Superconductivity", false),
    ("test", "Test", false),
    ("test.dis-nn", "Test Disruptive Networks", false),
    ("test.mes-hall", "Test Hall", false),
    ("test.mtrl-sci", "Test Mtrl-Sci", false),
    ("test.soft", "Test Soft", false),
    ("test.stat-mech", "Test Mechanics", false),
    ("test.str-el", "Test Electrons", false),
    ("test.supr-con", "Test Superconductivity", false),
];

/// The entry of category `id` (exact, case-sensitive), if arXiv has it.
///
/// # Examples
/// ```
/// use pith::record::taxonomy::lookup;
/// assert_eq!(lookup("cs.DC").map(|c| c.1), Some("Distributed, Parallel, and Cluster Computing"));
/// assert!(lookup("alg-geom").is_some_and(|c| !c.2));
/// assert!(lookup("cs.dc").is_none());
/// ```
pub fn lookup(id: &str) -> Option<&'static (&'static str, &'static str, bool)> {
    CATEGORIES
        .binary_search_by(|c| c.0.as_bytes().cmp(id.as_bytes()))
        .ok()
        .map(|i| &CATEGORIES[i])
}

/// The archives whose categories carry the archive's name in front (`cs.DC` is "Computer
/// Science - Distributed, …"): arXiv's own names of its archives, the ones whose ids are not
/// categories themselves (`astro-ph`, `cond-mat` and `q-bio` are, in [`CATEGORIES`]).
const ARCHIVES: &[(&str, &str)] = &[
    ("cs", "Computer Science"),
    ("econ", "Economics"),
    ("eess", "Electrical Engineering and Systems Science"),
    ("math", "Mathematics"),
    ("nlin", "Nonlinear Sciences"),
    ("physics", "Physics"),
    ("q-fin", "Quantitative Finance"),
    ("stat", "Statistics"),
];

/// The subject a reference manager files a paper of category `id` under, as Zotero's arXiv
/// translator names its tags: `Archive - Category` for a category inside an archive
/// (`Computer Science - Distributed, Parallel, and Cluster Computing`,
/// `Astrophysics - Astrophysics of Galaxies`), else the category's name (`High Energy Physics -
/// Theory`); `None` for a category arXiv does not have.
///
/// # Examples
/// ```
/// use pith::record::taxonomy::subject;
/// assert_eq!(subject("cs.DC").as_deref(),
///            Some("Computer Science - Distributed, Parallel, and Cluster Computing"));
/// assert_eq!(subject("astro-ph.GA").as_deref(), Some("Astrophysics - Astrophysics of Galaxies"));
/// assert_eq!(subject("hep-th").as_deref(), Some("High Energy Physics - Theory"));
/// assert_eq!(subject("cs.XX"), None);
/// ```
pub fn subject(id: &str) -> Option<String> {
    let name = lookup(id)?.1;
    let archive = id.split_once('.').and_then(|(a, _)| {
        ARCHIVES
            .iter()
            .find(|(x, _)| *x == a)
            .map(|(_, n)| *n)
            .or_else(|| lookup(a).map(|c| c.1))
    });
    Some(match archive {
        Some(a) => format!("{a} - {name}"),
        None => name.to_owned(),
    })
}

/// The category whose id equals `id` ignoring ASCII case: the likely meant spelling of a
/// category that is not found as typed.
pub fn suggest(id: &str) -> Option<&'static str> {
    CATEGORIES
        .iter()
        .find(|c| c.0.eq_ignore_ascii_case(id.trim()))
        .map(|c| c.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_unique_and_complete() {
        assert!(CATEGORIES
            .windows(2)
            .all(|w| w[0].0.as_bytes() < w[1].0.as_bytes()));
        assert_eq!(CATEGORIES.len(), 184);
        for id in [
            "cs.DC", "math-ph", "hep-th", "astro-ph", "q-alg", "solv-int", "cmp-lg", "stat.TH",
        ] {
            assert!(lookup(id).is_some(), "{id}");
        }
        assert_eq!(suggest("CS.dc"), Some("cs.DC"));
        assert_eq!(suggest("cs.XX"), None);
    }
}
