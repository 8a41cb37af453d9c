//! Apache Parquet files, written with the `parquet` crate's low-level writer (no Arrow): a
//! schema of named columns (64-bit integers, doubles and UTF-8 strings, each required or
//! nullable), then row groups streamed one at a time (uncompressed), so a file of many rows is
//! written in the memory of one group. The study's long table is one group: a column per field
//! of `ResultRow` and one per axis (a double where every cell's value is a number, else a
//! string), its optional columns (`se`, `ci_low`, `ci_high`) nullable. `sim blackjack
//! --rounds-out` streams its per-round records through the same writer.

use std::io::Write;
use std::sync::{Arc, Mutex};

use parquet::basic::{ConvertedType, LogicalType, Repetition, Type as Physical};
use parquet::data_type::{ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::types::Type;

use super::out::ResultTable;

/// A column of one row group: its name and values (`None`: null).
pub enum Column {
    Int(String, Vec<Option<i64>>),
    Double(String, Vec<Option<f64>>),
    Text(String, Vec<String>),
}

impl Column {
    fn name(&self) -> &str {
        match self {
            Column::Int(n, _) | Column::Double(n, _) | Column::Text(n, _) => n,
        }
    }

    /// Whether some value is null.
    fn has_null(&self) -> bool {
        match self {
            Column::Int(_, v) => v.iter().any(Option::is_none),
            Column::Double(_, v) => v.iter().any(Option::is_none),
            Column::Text(..) => false,
        }
    }

    /// The column's field in a schema, nullable or not.
    fn field(&self, nullable: bool) -> Result<Type, String> {
        let rep = if nullable {
            Repetition::OPTIONAL
        } else {
            Repetition::REQUIRED
        };
        let b = match self {
            Column::Int(n, _) => {
                Type::primitive_type_builder(n, Physical::INT64).with_repetition(rep)
            }
            Column::Double(n, _) => {
                Type::primitive_type_builder(n, Physical::DOUBLE).with_repetition(rep)
            }
            Column::Text(n, _) => Type::primitive_type_builder(n, Physical::BYTE_ARRAY)
                .with_repetition(rep)
                .with_logical_type(Some(LogicalType::String))
                .with_converted_type(ConvertedType::UTF8),
        };
        b.build().map_err(|e| e.to_string())
    }
}

/// The bytes the writer has made and not yet handed on (the `parquet` writer needs a `Send`
/// sink; the door's stream is not one).
#[derive(Clone, Default)]
struct Spool(Arc<Mutex<Vec<u8>>>);

impl Spool {
    fn drain_into(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let mut b = self.0.lock().unwrap_or_else(|p| p.into_inner());
        out.write_all(&b)?;
        b.clear();
        Ok(())
    }
}

impl Write for Spool {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn io(e: parquet::errors::ParquetError) -> std::io::Error {
    std::io::Error::other(format!("cannot write the Parquet file: {e}"))
}

/// A Parquet file being written to `out`, a row group at a time.
pub struct Writer<'a> {
    file: SerializedFileWriter<Spool>,
    spool: Spool,
    out: &'a mut dyn Write,
    /// Each column's name, for checking the groups against the schema, and whether it is
    /// nullable.
    names: Vec<String>,
    nullable: Vec<bool>,
}

impl<'a> Writer<'a> {
    /// A file named `schema` in its metadata, of the columns of `like` (their values are not
    /// written), each nullable where `nullable` says so.
    pub fn new(
        out: &'a mut dyn Write,
        schema: &str,
        like: &[Column],
        nullable: &[bool],
    ) -> std::io::Result<Writer<'a>> {
        let fields = like
            .iter()
            .zip(nullable)
            .map(|(c, &n)| c.field(n).map(Arc::new))
            .collect::<Result<Vec<_>, _>>()
            .map_err(std::io::Error::other)?;
        let schema = Type::group_type_builder(schema)
            .with_fields(fields)
            .build()
            .map_err(io)?;
        let props = Arc::new(
            WriterProperties::builder()
                .set_created_by(format!("rtplab {}", crate::VERSION))
                .build(),
        );
        let spool = Spool::default();
        let file = SerializedFileWriter::new(spool.clone(), Arc::new(schema), props).map_err(io)?;
        Ok(Writer {
            file,
            spool,
            out,
            names: like.iter().map(|c| c.name().to_string()).collect(),
            nullable: nullable.to_vec(),
        })
    }

    /// Write one row group of these columns (the schema's, in its order, of equal lengths),
    /// and hand its bytes on.
    pub fn group(&mut self, cols: &[Column]) -> std::io::Result<()> {
        if cols
            .iter()
            .map(Column::name)
            .ne(self.names.iter().map(String::as_str))
        {
            return Err(std::io::Error::other(
                "a row group's columns are not the schema's",
            ));
        }
        let mut g = self.file.next_row_group().map_err(io)?;
        for (col, &nullable) in cols.iter().zip(&self.nullable) {
            let mut cw = g
                .next_column()
                .map_err(io)?
                .ok_or_else(|| std::io::Error::other("the schema has fewer columns"))?;
            match col {
                Column::Int(_, v) => {
                    let values: Vec<i64> = v.iter().flatten().copied().collect();
                    let defs: Vec<i16> = v.iter().map(|x| i16::from(x.is_some())).collect();
                    cw.typed::<Int64Type>()
                        .write_batch(&values, nullable.then_some(&defs[..]), None)
                        .map_err(io)?;
                }
                Column::Double(_, v) => {
                    let values: Vec<f64> = v.iter().flatten().copied().collect();
                    let defs: Vec<i16> = v.iter().map(|x| i16::from(x.is_some())).collect();
                    cw.typed::<DoubleType>()
                        .write_batch(&values, nullable.then_some(&defs[..]), None)
                        .map_err(io)?;
                }
                Column::Text(_, v) => {
                    let values: Vec<ByteArray> =
                        v.iter().map(|s| ByteArray::from(s.as_str())).collect();
                    cw.typed::<ByteArrayType>()
                        .write_batch(&values, None, None)
                        .map_err(io)?;
                }
            }
            cw.close().map_err(io)?;
        }
        g.close().map_err(io)?;
        self.spool.drain_into(self.out)
    }

    /// End the file (its footer) and hand the last bytes on.
    pub fn finish(self) -> std::io::Result<()> {
        let Writer {
            file, spool, out, ..
        } = self;
        file.close().map_err(io)?;
        spool.drain_into(out)
    }
}

/// The columns of `t`, in the CSV's order.
fn columns(t: &ResultTable) -> Vec<Column> {
    let rows = &t.rows;
    let mut c = vec![
        Column::Int(
            "cell".into(),
            rows.iter().map(|r| Some(r.cell as i64)).collect(),
        ),
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
        Column::Int(
            "seed".into(),
            rows.iter().map(|r| Some(r.seed as i64)).collect(),
        ),
        Column::Int(
            "rounds_run".into(),
            rows.iter().map(|r| Some(r.rounds_run as i64)).collect(),
        ),
        Column::Text(
            "cell_key".into(),
            rows.iter().map(|r| r.cell_key.clone()).collect(),
        ),
    ]);
    c
}

/// The Parquet file's bytes: one row group.
pub fn write(t: &ResultTable) -> Result<Vec<u8>, String> {
    let cols = columns(t);
    let nullable: Vec<bool> = cols.iter().map(Column::has_null).collect();
    let mut buf = Vec::new();
    let mut w = Writer::new(&mut buf, "study", &cols, &nullable).map_err(|e| e.to_string())?;
    w.group(&cols).map_err(|e| e.to_string())?;
    w.finish().map_err(|e| e.to_string())?;
    Ok(buf)
}
