//! Python objects ⇄ JSON values: records and bundles enter the library as
//! [`serde_json::Value`], reports leave it as dicts and lists.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Map, Number, Value};

/// Deepest nesting accepted from Python (records are three levels deep; bundles a few more).
/// Deeper input is refused instead of recursing without bound.
const MAX_DEPTH: usize = 128;

/// A JSON value from a dict/list/str/int/float/bool/None tree, or from JSON text (`str`/`bytes`).
///
/// Returns `Err(message)` naming the first thing that is not JSON, so the caller can raise
/// the exception of its domain (a record error for records, a verify error for bundles).
pub fn value_from_py(obj: &Bound<'_, PyAny>) -> PyResult<Result<Value, String>> {
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_cow()?;
        return Ok(serde_json::from_str(&text).map_err(|e| format!("not JSON: {e}")));
    }
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(serde_json::from_slice(b.as_bytes()).map_err(|e| format!("not JSON: {e}")));
    }
    if !obj.is_instance_of::<PyDict>() && !obj.is_instance_of::<PyList>() {
        return Err(PyTypeError::new_err(format!(
            "expected a dict or JSON text (str/bytes), got {}",
            obj.get_type().name()?
        )));
    }
    Ok(tree(obj, "$", 0))
}

fn tree(obj: &Bound<'_, PyAny>, path: &str, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err(format!("{path}: nested deeper than {MAX_DEPTH} levels"));
    }
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.cast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() {
        if let Ok(i) = obj.extract::<i64>() {
            return Ok(Value::from(i));
        }
        if let Ok(u) = obj.extract::<u64>() {
            return Ok(Value::from(u));
        }
        return Err(format!("{path}: integer out of the 64-bit range"));
    }
    if let Ok(f) = obj.cast::<PyFloat>() {
        let v = f.value();
        return Number::from_f64(v)
            .map(Value::Number)
            .ok_or_else(|| format!("{path}: {v} is not a JSON number"));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return s
            .to_cow()
            .map(|s| Value::String(s.into_owned()))
            .map_err(|_| format!("{path}: string is not valid Unicode (lone surrogate)"));
    }
    if let Ok(d) = obj.cast::<PyDict>() {
        let mut map = Map::new();
        for (k, v) in d.iter() {
            let key = k
                .cast::<PyString>()
                .map_err(|_| format!("{path}: dict key is not a str"))?
                .to_cow()
                .map_err(|_| format!("{path}: dict key is not valid Unicode"))?
                .into_owned();
            let child = tree(&v, &format!("{path}.{key}"), depth + 1)?;
            map.insert(key, child);
        }
        return Ok(Value::Object(map));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for (i, item) in obj.try_iter().map_err(|e| e.to_string())?.enumerate() {
            let item = item.map_err(|e| e.to_string())?;
            out.push(tree(&item, &format!("{path}[{i}]"), depth + 1)?);
        }
        return Ok(Value::Array(out));
    }
    let type_name = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    Err(format!("{path}: a {type_name} is not a JSON value"))
}

/// A Python object for a JSON value (dicts keep the value's key order).
pub fn value_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => {
            if let Some(i) = n.as_i64() {
                i.into_pyobject(py)?.into_any()
            } else if let Some(u) = n.as_u64() {
                u.into_pyobject(py)?.into_any()
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any()
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let list = PyList::empty(py);
            for x in a {
                list.append(value_to_py(py, x)?)?;
            }
            list.into_any()
        }
        Value::Object(m) => {
            let d = PyDict::new(py);
            for (k, x) in m {
                d.set_item(k, value_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}
