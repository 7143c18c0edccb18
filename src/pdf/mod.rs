//! Reading and injecting Pith Numbers in compiled PDFs (issue #4).
