//! A reader of `model.safetensors` files (F32 tensors only).

use std::collections::HashMap;

/// Tensors of a safetensors file (F32 only).
pub(super) struct SafeTensors {
    data: Vec<u8>,
    start: usize,
    entries: HashMap<String, (String, Vec<usize>, usize, usize)>,
}

impl SafeTensors {
    pub(super) fn parse(data: Vec<u8>) -> std::result::Result<SafeTensors, String> {
        let header_len = data
            .get(..8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])) as usize)
            .ok_or("shorter than its 8-byte header length")?;
        let start = 8usize
            .checked_add(header_len)
            .filter(|&s| s <= data.len())
            .ok_or("header longer than the file")?;
        let header: serde_json::Map<String, serde_json::Value> =
            serde_json::from_slice(&data[8..start]).map_err(|e| format!("header: {e}"))?;
        let mut entries = HashMap::new();
        for (name, info) in header {
            if name == "__metadata__" {
                continue;
            }
            let dtype = info["dtype"]
                .as_str()
                .ok_or_else(|| format!("{name}: no dtype"))?
                .to_string();
            let shape = info["shape"]
                .as_array()
                .and_then(|s| s.iter().map(|d| d.as_u64().map(|d| d as usize)).collect())
                .ok_or_else(|| format!("{name}: no shape"))?;
            let offsets: Vec<usize> = info["data_offsets"]
                .as_array()
                .and_then(|s| s.iter().map(|d| d.as_u64().map(|d| d as usize)).collect())
                .filter(|o: &Vec<usize>| o.len() == 2 && o[0] <= o[1])
                .ok_or_else(|| format!("{name}: no data_offsets"))?;
            if start + offsets[1] > data.len() {
                return Err(format!("{name}: data past the end of the file"));
            }
            entries.insert(name, (dtype, shape, offsets[0], offsets[1]));
        }
        Ok(SafeTensors {
            data,
            start,
            entries,
        })
    }

    /// The F32 tensor `name` (or `bert.name`) of `shape`.
    pub(super) fn get(&self, name: &str, shape: &[usize]) -> std::result::Result<Vec<f32>, String> {
        let prefixed = format!("bert.{name}");
        let (dtype, found, begin, end) = self
            .entries
            .get(name)
            .or_else(|| self.entries.get(&prefixed))
            .ok_or_else(|| format!("no tensor {name}"))?;
        if dtype != "F32" {
            return Err(format!("{name} is {dtype}, not F32"));
        }
        if found != shape {
            return Err(format!("{name} has shape {found:?}, not {shape:?}"));
        }
        let bytes = &self.data[self.start + begin..self.start + end];
        if bytes.len() != shape.iter().product::<usize>() * 4 {
            return Err(format!("{name}: {} bytes for shape {shape:?}", bytes.len()));
        }
        Ok(bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect())
    }
}
