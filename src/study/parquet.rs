//! The long table as an Apache Parquet file, written with the `parquet` crate's low-level
//! writer (no Arrow): one row group, uncompressed, a column per field of `ResultRow` and one
//! per axis (a double where every cell's value is a number, else a UTF-8 string). Optional
//! columns (`se`, `ci_low`, `ci_high`) are nullable.

use std::sync::Arc;

use parquet::basic::{ConvertedType, LogicalType, Repetition, Type as Physical};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;

use super::out::ResultTable;

/// A column of the file: its name and values (`None`: null).
enum Column {
    Int(&'static str, Vec<i64>),
    Double(String, Vec<Option<f64>>),
    Text(String, Vec<String>),
}

impl Column {
    fn field(&self) -> Result<Type, String> {
        let b = match self {
            Column::Int(n, _) => Type::primitive_type_builder(n, Physical::INT64)
                .with_repetition(Repetition::REQUIRED),
            Column::Double(n, v) => Type::primitive_type_builder(n, Physical::DOUBLE)
                .with_repetition(if v.iter().all(Option::is_some) {
                    Repetition::REQUIRED
                } else {
                    Repetition::OPTIONAL
                }),
            Column::Text(n, _) => Type::primitive_type_builder(n, Physical::BYTE_ARRAY)
                .with_repetition(Repetition::REQUIRED)
                .with_logical_type(Some(LogicalType::String))
                .with_converted_type(ConvertedType::UTF8),
        };
        b.build().map_err(|e| e.to_string())
    }
}

/// The columns of `t`, in the CSV's order.
fn columns(t: &ResultTable) -> Vec<Column> {
    let rows = &t.rows;
    let mut c = vec![
        Column::Int("cell", rows.iter().map(|r| r.cell as i64).collect()),
        Column::Text(
            "label".into(),
            rows.iter().map(|r| r.label.clone()).collect(),
        ),
    ];
    for (a, name) in t.axes.iter().enumerate() {
        let vals = rows.iter().map(|r| r.settings[a].clone());
        c.push(if t.numeric_axes[a] {
            Column::Double(name.clone(), vals.map(|v| v.parse().ok()).collect())
        } else {
            Column::Text(name.clone(), vals.collect())
        });
    }
    c.extend([
        Column::Text(
            "figure".into(),
            rows.iter().map(|r| r.figure.clone()).collect(),
        ),
        Column::Double("value".into(), rows.iter().map(|r| Some(r.value)).collect()),
        Column::Double("se".into(), rows.iter().map(|r| r.se).collect()),
        Column::Double("ci_low".into(), rows.iter().map(|r| r.ci_low).collect()),
        Column::Double("ci_high".into(), rows.iter().map(|r| r.ci_high).collect()),
        Column::Int("seed", rows.iter().map(|r| r.seed as i64).collect()),
        Column::Int(
            "rounds_run",
            rows.iter().map(|r| r.rounds_run as i64).collect(),
        ),
        Column::Text(
            "cell_key".into(),
            rows.iter().map(|r| r.cell_key.clone()).collect(),
        ),
    ]);
    c
}

/// The Parquet file's bytes.
pub fn write(t: &ResultTable) -> Result<Vec<u8>, String> {
    let e = |e: parquet::errors::ParquetError| format!("cannot write the Parquet file: {e}");
    let cols = columns(t);
    let fields = cols
        .iter()
        .map(|c| c.field().map(Arc::new))
        .collect::<Result<Vec<_>, _>>()?;
    let schema = Type::group_type_builder("study")
        .with_fields(fields)
        .build()
        .map_err(e)?;
    let props = Arc::new(
        WriterProperties::builder()
            .set_created_by(format!("rtplab {}", crate::VERSION))
            .build(),
    );
    let mut buf = Vec::new();
    let mut w = SerializedFileWriter::new(&mut buf, Arc::new(schema), props).map_err(e)?;
    let mut g = w.next_row_group().map_err(e)?;
    for col in &cols {
        let mut cw = g
            .next_column()
            .map_err(e)?
            .ok_or("the schema has fewer columns than the table")?;
        match col {
            Column::Int(_, v) => {
                cw.typed::<Int64Type>()
                    .write_batch(v, None, None)
                    .map_err(e)?;
            }
            Column::Double(_, v) => {
                let values: Vec<f64> = v.iter().flatten().copied().collect();
                let defs: Vec<i16> = v.iter().map(|x| i16::from(x.is_some())).collect();
                let nullable = values.len() < v.len();
                cw.typed::<DoubleType>()
                    .write_batch(&values, nullable.then_some(&defs[..]), None)
                    .map_err(e)?;
            }
            Column::Text(_, v) => {
                let values: Vec<ByteArray> =
                    v.iter().map(|s| ByteArray::from(s.as_str())).collect();
                cw.typed::<ByteArrayType>()
                    .write_batch(&values, None, None)
                    .map_err(e)?;
            }
        }
        cw.close().map_err(e)?;
    }
    g.close().map_err(e)?;
    w.close().map_err(e)?;
    Ok(buf)
}
