package dev.schedlab.hw.importer;

import dev.schedlab.spi.FileProblems;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.w3c.dom.Document;
import org.w3c.dom.DocumentType;
import org.xml.sax.ErrorHandler;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;
import org.xml.sax.SAXParseException;

/**
 * A DOM parser that never reaches outside the document: no external DTD, no external general or
 * parameter entities, no XInclude, no entity expansion into the tree, and secure processing limits
 * against entity bombs. hwloc files carry {@code <!DOCTYPE topology SYSTEM "hwloc2.dtd">}, so a
 * DOCTYPE naming hwloc's DTD is allowed (it is never read), but one naming another DTD or with an
 * internal subset (where entities are declared) is refused after parsing. Elements nest at most
 * {@value #MAX_ELEMENT_DEPTH} deep, so that nothing after the parse recurses without bound.
 */
final class SafeXml {

  /** The DOCTYPEs hwloc writes: version 1 and version 2 of its DTD. */
  private static final List<String> HWLOC_DTDS = List.of("hwloc.dtd", "hwloc2.dtd");

  private static final String ACCEPTED =
      "<!DOCTYPE topology SYSTEM \"hwloc.dtd\"> or SYSTEM \"hwloc2.dtd\"";

  /**
   * Elements nested deeper than this end the parse: hwloc exports nest about 15 deep (topology,
   * machine, package, groups, caches, core, PU, info), and the DOM walk after parsing recurses.
   */
  static final int MAX_ELEMENT_DEPTH = 512;

  private SafeXml() {}

  /** The hwloc DOCTYPE: root {@code topology}, a DTD (by its file name, wherever) of hwloc's. */
  private static boolean isHwlocDoctype(DocumentType doctype) {
    String system = doctype.getSystemId();
    if (!"topology".equals(doctype.getName()) || system == null) {
      return false;
    }
    String file = system.substring(system.lastIndexOf('/') + 1);
    return doctype.getPublicId() == null && HWLOC_DTDS.contains(file);
  }

  static Document parse(InputStream in, String source) {
    DocumentBuilder builder = newBuilder(source);
    Document document;
    try {
      document = builder.parse(new InputSource(in));
    } catch (SAXParseException e) {
      if (String.valueOf(e.getMessage()).contains("maxElementDepth")) {
        throw new TopologyImportException(
            source,
            "elements nested deeper than "
                + MAX_ELEMENT_DEPTH
                + " levels at line "
                + e.getLineNumber()
                + "; hwloc exports nest"
                + " about 15",
            e);
      }
      throw new TopologyImportException(
          source,
          "malformed XML at line "
              + e.getLineNumber()
              + ", column "
              + e.getColumnNumber()
              + ": "
              + e.getMessage(),
          e);
    } catch (SAXException e) {
      throw new TopologyImportException(source, "malformed XML: " + e.getMessage(), e);
    } catch (IOException e) {
      throw new TopologyImportException(source, "cannot read: " + FileProblems.describe(e), e);
    }
    DocumentType doctype = document.getDoctype();
    if (doctype != null
        && ((doctype.getInternalSubset() != null && !doctype.getInternalSubset().isBlank())
            || doctype.getEntities().getLength() > 0)) {
      throw new TopologyImportException(
          source,
          "DOCTYPE declares an internal subset (entities); refused, only "
              + ACCEPTED
              + " is accepted");
    }
    if (doctype != null && !isHwlocDoctype(doctype)) {
      throw new TopologyImportException(
          source,
          "DOCTYPE "
              + doctype.getName()
              + (doctype.getSystemId() == null ? "" : " SYSTEM \"" + doctype.getSystemId() + "\"")
              + " is not hwloc's; accepted: "
              + ACCEPTED
              + " or none (the DTD is never read)");
    }
    return document;
  }

  private static DocumentBuilder newBuilder(String source) {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    try {
      factory.setNamespaceAware(false);
      factory.setValidating(false);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
      factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
      factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
      factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
      factory.setAttribute(
          "http://www.oracle.com/xml/jaxp/properties/maxElementDepth", MAX_ELEMENT_DEPTH);
      factory.setXIncludeAware(false);
      factory.setExpandEntityReferences(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      builder.setEntityResolver(
          (publicId, systemId) -> {
            throw new SAXException("external entity " + systemId + " refused");
          });
      builder.setErrorHandler(
          new ErrorHandler() {
            @Override
            public void warning(SAXParseException e) {}

            @Override
            public void error(SAXParseException e) throws SAXException {
              throw e;
            }

            @Override
            public void fatalError(SAXParseException e) throws SAXException {
              throw e;
            }
          });
      return builder;
    } catch (ParserConfigurationException | IllegalArgumentException e) {
      throw new TopologyImportException(
          source, "this JDK's XML parser cannot be configured safely: " + e.getMessage(), e);
    }
  }
}
