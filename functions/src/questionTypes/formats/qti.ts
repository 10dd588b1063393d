// QTI 2.1 and 3.0 read and written with every question type's mappings (each type's qti.ts): the
// packages and interactions are interchange/qti/'s, what a type becomes in them is the type's.
export { parseQtiPackage, parseQtiXml, QtiPackageWriter, toQtiPackage } from '../../interchange';
